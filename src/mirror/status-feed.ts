import { liveQuery } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import { watchReopening } from '../db/reopen.js';
import { COLLECTIONS, type CollectionName } from '../schema/collections.js';
import { groupStatuses, readUnavailable, type ListName, type SyncGroup } from '../sync/cycle/index.js';
import { oldestEditAt, OUTBOX_TOUCHED, readOrphanedCreates } from '../sync/outbox/index.js';
import { readMovedCreates } from '../sync/push/index.js';
import { ObservableValue } from './observable-value.js';
import { initialProgress, initialStatus, type SyncProgress, type SyncStatus } from './status.js';

/** Options of {@link createStatusFeed}. */
export interface StatusFeedOptions {
  db: MirrorDb;
  /** The runtime's idea of connectivity when the mirror is made. */
  online: boolean;
  /** The collections the mirror keeps. */
  collections: readonly CollectionName[];
  /** The groups of a first sync, whose completion `status.groups` shows. */
  groups: readonly SyncGroup[];
}

/** The mirror's `status` and `progress`, and what keeps them current. */
export interface StatusFeed {
  readonly status: ObservableValue<SyncStatus>;
  readonly progress: ObservableValue<SyncProgress>;
  /** Lays `patch` on the status (the phase and the leader are the sync controller's, derived from its state). */
  set: (patch: Partial<SyncStatus>) => void;
  /**
   * Tells `listener` when the outbox has new pending entries, or another tab announced an edit:
   * the leader pushes them now rather than at its next poll.
   */
  onOutboxGrew(listener: () => void): void;
  /** Ends the counts' live query; the status and the progress complete, for good. */
  close(): void;
}

/**
 * Creates a {@link StatusFeed}. The counts (pending, rejected, conflicts, quarantined, the oldest
 * edit waiting) and the collections' pull times come from the database itself through live
 * queries, so every tab shows the same numbers; so do the groups' first syncs (`status.groups`),
 * computed from the checkpoints.
 */
export function createStatusFeed(options: StatusFeedOptions): StatusFeed {
  const { db } = options;
  const groupsOf = (initialDone: ReadonlySet<CollectionName>, paused?: ReadonlySet<CollectionName>) => groupStatuses(options.groups, options.collections, initialDone, paused);
  // Until the checkpoints are read, no group is complete but one with nothing to pull.
  const status = new ObservableValue<SyncStatus>({ ...initialStatus(options.online), groups: groupsOf(new Set()) });
  const progress = new ObservableValue<SyncProgress>(initialProgress());
  const set = (patch: Partial<SyncStatus>) => status.update((s) => ({ ...s, ...patch }));

  let outboxGrew: () => void = () => undefined;
  // The live query's previous answer, its own: the status shows the counts, it does not decide what follows from them.
  let pending = 0;
  let outboxTouched: unknown;
  let counts: { unsubscribe(): void } | undefined;
  let pulls: { unsubscribe(): void } | undefined;
  const followCounts = () => {
    pulls?.unsubscribe();
    pulls = followPulls(db, ({ lastPulledAt, historyEdge, initialDone, paused }) => set({ lastPulledAt, historyEdge, groups: groupsOf(initialDone, paused) }));
    counts?.unsubscribe();
    counts = liveQuery(async () => ({
      pendingPushes: await db._sync_outbox.where('state').equals('pending').count(),
      rejected: await db._sync_outbox.where('state').equals('rejected').count(),
      conflicts: await db._sync_conflicts.count(),
      quarantined: await db._sync_quarantine.count(),
      quarantinedBy: await quarantinedByCollection(db),
      unavailable: Object.keys(await readUnavailable(db)).sort() as ListName[],
      movedCreates: await readMovedCreates(db),
      orphanedCreates: await readOrphanedCreates(db),
      oldestPendingEditAt: await oldestEditAt(db),
      touched: (await db._sync_meta.get(OUTBOX_TOUCHED))?.value,
    })).subscribe({
      next: ({ touched, ...c }) => {
        // New pending edits, or an edit another tab made (it touches a row: an edit folded into a
        // pending entry leaves the count as it was).
        const grew = c.pendingPushes > pending || touched !== outboxTouched;
        pending = c.pendingPushes;
        outboxTouched = touched;
        set(c);
        if (grew) outboxGrew();
      },
      error: () => undefined,
    });
  };
  followCounts();
  // A live query that ran while the database could not be opened (no room to create it, say)
  // never answers again: the counts are followed afresh each time the database opens.
  db.on('ready', followCounts, true);
  const stopWatching = watchReopening(db, () => set({ storage: 'reopening' }));
  const opened = () => {
    if (status.value.storage !== 'open') set({ storage: 'open' });
  };
  db.on('ready', opened, true);

  return {
    status,
    progress,
    set,
    onOutboxGrew(listener) {
      outboxGrew = listener;
    },
    close() {
      db.on('ready').unsubscribe(followCounts);
      db.on('ready').unsubscribe(opened);
      stopWatching();
      counts?.unsubscribe();
      pulls?.unsubscribe();
      status.complete();
      progress.complete();
    },
  };
}

/** The quarantine's rows counted per collection (one key range each: rows are keyed `${collection}:...`). */
async function quarantinedByCollection(db: MirrorDb): Promise<Partial<Record<ListName, number>>> {
  const counts: Partial<Record<ListName, number>> = {};
  const names: ListName[] = [...COLLECTIONS, 'categories'];
  const found = await Promise.all(names.map((name) => db._sync_quarantine.where(':id').startsWith(`${name}:`).count()));
  names.forEach((name, i) => {
    if (found[i]! > 0) counts[name] = found[i]!;
  });
  return counts;
}

/** What the checkpoints tell the status: when each collection was last pulled, and which have had their first full traversal. */
interface PullsSeen {
  lastPulledAt: Partial<Record<CollectionName, number>>;
  /** Where each collection under a history window is complete from (`historyEdge`). */
  historyEdge: Partial<Record<CollectionName, number>>;
  initialDone: Set<CollectionName>;
  /** Those whose first traversal paused at a sync group's edge (`pausedAt`). */
  paused: Set<CollectionName>;
}

/**
 * Follows when each collection was last pulled to the end (the checkpoints' `lastSyncAt`) and
 * whether its first full traversal is done (`initialDone`), in a live query of its own: a
 * traversal saves its cursor with every page it writes, and those saves must not run the counts
 * again. `publish` is told only when one of them changed.
 */
function followPulls(db: MirrorDb, publish: (seen: PullsSeen) => void): { unsubscribe(): void } {
  let last = '';
  return liveQuery(async () => {
    const seen: PullsSeen = { lastPulledAt: {}, historyEdge: {}, initialDone: new Set(), paused: new Set() };
    for (const row of await db._sync_checkpoints.toArray()) {
      if (row.collection === 'categories') continue;
      if (row.lastSyncAt !== undefined) seen.lastPulledAt[row.collection] = row.lastSyncAt;
      if (row.initialDone) seen.initialDone.add(row.collection);
      if (row.pausedAt !== undefined) seen.paused.add(row.collection);
      if (row.historyEdge !== undefined) seen.historyEdge[row.collection] = row.historyEdge;
    }
    return seen;
  }).subscribe({
    next: (seen) => {
      const key = JSON.stringify([seen.lastPulledAt, seen.historyEdge, [...seen.initialDone], [...seen.paused]]);
      if (key === last) return;
      last = key;
      publish(seen);
    },
    error: () => undefined,
  });
}
