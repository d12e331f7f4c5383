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
}

/** The names of {@link DEFAULT_SYNC_GROUPS}. */
export type DefaultSyncGroupName = 'reference' | 'catalogue' | 'history';

/**
 * The order of a first sync when the app gives none (the option `syncGroups`): what a person at
 * a register needs first, and the largest collections last.
 *
 * 1. `reference`: the shops, their registers, warehouses, employees and park locations (a few
 *    records each, which every screen starts from).
 * 2. `catalogue`: products with their price matrix, and customers (what a sale is made of).
 * 3. `history`: orders and their items first (the sales), then transactions, shifts, stock-ups,
 *    and stock history (the largest collection of most shops) last.
 *    Each of these is traversed newest first on a first sync (`NEWEST_FIRST`, in the pull).
 *
 * The category tree, which is not one of the 14 collections, is read at the end of every full run.
 */
export const DEFAULT_SYNC_GROUPS: readonly SyncGroup<DefaultSyncGroupName>[] = [
  { name: 'reference', collections: ['shops', 'cash_registers', 'warehouses', 'employees', 'park_locations'] },
  { name: 'catalogue', collections: ['products', 'product_price_matrix', 'customers'] },
  { name: 'history', collections: ['orders', 'order_details', 'transactions', 'shifts', 'stockup', 'stock_history'] },
];

/** Where a group's first sync stands, as `status.groups` shows it. */
export interface SyncGroupStatus {
  /**
   * True once every collection of the group that the mirror keeps has completed a full traversal
   * (a group with none of them is complete from the start). A `resync()` of one of its collections
   * makes it false again until that collection's new full traversal completes.
   */
  initialDone: boolean;
}

/** The collections of `mirrored`, in the order of `groups`: the order in which a run pulls them. */
export function orderByGroups(groups: readonly SyncGroup[], mirrored: readonly CollectionName[]): CollectionName[] {
  const kept = new Set(mirrored);
  return groups.flatMap((group) => group.collections.filter((c) => kept.has(c)));
}

/**
 * Each group's {@link SyncGroupStatus}, from the collections whose first full traversal is done
 * (the checkpoints' `initialDone`): the same in every tab, and across restarts.
 */
export function groupStatuses(groups: readonly SyncGroup[], mirrored: readonly CollectionName[], initialDone: ReadonlySet<CollectionName>): Record<string, SyncGroupStatus> {
  const kept = new Set(mirrored);
  return Object.fromEntries(groups.map((group) => [group.name, { initialDone: group.collections.every((c) => !kept.has(c) || initialDone.has(c)) }]));
}
