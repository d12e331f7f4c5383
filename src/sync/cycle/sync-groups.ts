import type { CollectionName } from '../../schema/collections.js';

/**
 * Collections a first sync fills together, and a name an app waits for them by (`whenSynced`,
 * `useGroupSynced`, `status.groups`). A run pulls the groups one after the other, each group's
 * collections in the order given.
 */
export interface SyncGroup<N extends string = string> {
  /** The group's name. */
  name: N;
  /** Its collections, pulled in this order. */
  collections: readonly CollectionName[];
  /**
   * Bounds the group to the records created in the last `days` days (a positive number): the first
   * (backward, newest first) traversal of each of its collections stops at that edge, and the
   * group's first sync is complete there. Each of them must also be in a later group without
   * `days`, whose pull continues the traversal, older records first, from where this one stopped.
   * Only the history collections (`NEWEST_FIRST`) are traversed newest first, so only they may be
   * bounded. @default unbounded
   */
  days?: number | undefined;
}

/** One pull of a run: a collection, bounded to its last `days` days when its group is (see {@link SyncGroup.days}). */
export interface PullStep {
  collection: CollectionName;
  days?: number | undefined;
}

/** The names of {@link DEFAULT_SYNC_GROUPS}. */
export type DefaultSyncGroupName = 'reference' | 'catalogue' | 'recent' | 'history';

/**
 * The order of a first sync when the app gives none (the option `syncGroups`): what a person at
 * a register needs first, and the largest collections last.
 *
 * 1. `reference`: the shops, their registers, warehouses, employees and park locations (a few
 *    records each, which every screen starts from).
 * 2. `catalogue`: products with their price matrix, and customers (what a sale is made of).
 * 3. `recent`: the orders and their items of the last day (`days: 1`), newest first: a new
 *    tablet has today's sales long before the years of history behind them.
 * 4. `history`: the rest of the orders and their items (their traversals go on, older first, from
 *    where `recent` stopped), then transactions, shifts, stock-ups, and stock history (the largest
 *    collection of most shops) last.
 *    Each of these is traversed newest first on a first sync (`NEWEST_FIRST`, in the pull).
 *
 * The category tree, which is not one of the 14 collections, is read at the end of every full run.
 */
export const DEFAULT_SYNC_GROUPS: readonly SyncGroup<DefaultSyncGroupName>[] = [
  { name: 'reference', collections: ['shops', 'cash_registers', 'warehouses', 'employees', 'park_locations'] },
  { name: 'catalogue', collections: ['products', 'product_price_matrix', 'customers'] },
  { name: 'recent', collections: ['orders', 'order_details'], days: 1 },
  { name: 'history', collections: ['orders', 'order_details', 'transactions', 'shifts', 'stockup', 'stock_history'] },
];

/** Where a group's first sync stands, as `status.groups` shows it. */
export interface SyncGroupStatus {
  /**
   * True once every collection of the group that the mirror keeps has completed a full traversal
   * (a group with none of them is complete from the start), or, in a group with `days`, has
   * reached the group's edge. A `resync()` of one of its collections makes it false again until
   * that collection's new traversal gets there.
   */
  initialDone: boolean;
}

/** The collections of `mirrored`, each once, in the order of the groups that pull them whole (those without `days`). */
export function orderByGroups(groups: readonly SyncGroup[], mirrored: readonly CollectionName[]): CollectionName[] {
  return pullSteps(groups, mirrored)
    .filter((step) => step.days === undefined)
    .map((step) => step.collection);
}

/**
 * The pulls of a full run, in the order of `groups`: each collection of `mirrored` once in the
 * group that pulls it whole, and before that in the bounded group (with `days`) that has it, if any.
 */
export function pullSteps(groups: readonly SyncGroup[], mirrored: readonly CollectionName[]): PullStep[] {
  const kept = new Set(mirrored);
  return groups.flatMap((group) => group.collections.filter((c) => kept.has(c)).map((collection) => (group.days === undefined ? { collection } : { collection, days: group.days })));
}

/**
 * Each group's {@link SyncGroupStatus}, from the collections whose first full traversal is done
 * (the checkpoints' `initialDone`) and, for a group with `days`, those whose first traversal
 * paused at its edge (`pausedAt`): the same in every tab, and across restarts.
 */
export function groupStatuses(
  groups: readonly SyncGroup[],
  mirrored: readonly CollectionName[],
  initialDone: ReadonlySet<CollectionName>,
  paused: ReadonlySet<CollectionName> = new Set(),
): Record<string, SyncGroupStatus> {
  const kept = new Set(mirrored);
  const done = (group: SyncGroup, c: CollectionName) => !kept.has(c) || initialDone.has(c) || (group.days !== undefined && paused.has(c));
  return Object.fromEntries(groups.map((group) => [group.name, { initialDone: group.collections.every((c) => done(group, c)) }]));
}
