import type { MovedCreate, OrphanedCreates } from '../db/sync-rows.js';
import type { CollectionName } from '../schema/collections.js';
import type { SyncPhase } from '../sync/controller/index.js';
import type { StrandedCopy } from '../sync/copies/index.js';
import { initialProgress, type CollectionSyncProgress, type SyncGroupStatus, type SyncProgress } from '../sync/cycle/index.js';

export type { SyncPhase };
// The progress is the sync engine's (it is made where the pulls run); the mirror publishes it.
export { initialProgress, type CollectionSyncProgress, type SyncProgress };

/** What the runtime says of the space an origin uses and may use (`navigator.storage.estimate()`), in bytes. */
export interface StorageQuota {
  /** About how many bytes the origin uses (all its storage, not only the mirror's database). */
  usage: number;
  /** About how many bytes the origin may use before a write fails with `QuotaExceededError`. */
  quota: number;
  /** When the runtime said so (local ms epoch). */
  at: number;
}

/**
 * The mirror's sync status, as `mirror.status` publishes it. `G` is the names of the mirror's
 * sync groups (see the option `syncGroups`).
 */
export interface SyncStatus<G extends string = string> {
  phase: SyncPhase;
  /** The runtime's idea of connectivity. */
  online: boolean;
  /** True when this instance is the one that syncs; false until its election has answered. */
  leader: boolean;
  /** Local edits not yet acknowledged by the server (pending, excluding rejected and conflicts). */
  pendingPushes: number;
  /** Local edits the server refused, kept with its reason. */
  rejected: number;
  /** Unresolved conflicts. */
  conflicts: number;
  /**
   * Server records held in quarantine (rows of `_sync_quarantine`, one per record): a record
   * refused again keeps its one row, and a record leaves once a version the read schema accepts
   * is applied (or the server no longer lists it in a reconcile sweep or the category tree).
   */
  quarantined: number;
  /**
   * {@link quarantined}, per collection (and `categories`): how many of its records are held back
   * now. Collections with none are left out.
   */
  quarantinedBy: Partial<Record<CollectionName | 'categories', number>>;
  /**
   * Collections whose latest pulled page had most of its records refused by the read schema: the
   * server's data and this version's schema disagree, so the collection stays mostly empty (see
   * {@link quarantinedBy}). A later page mostly accepted takes it off the list.
   */
  refusing: (CollectionName | 'categories')[];
  /**
   * Collections (and `categories`) the server lacks: their list answered 404 at every path form.
   * They are asked again once per reconcile interval, on `resync()`, and when `syncNow()` names
   * them; their edits wait in the outbox (counted in {@link pendingPushes}) until they are back.
   */
  unavailable: (CollectionName | 'categories')[];
  /**
   * Collections (and `categories`) whose last pull failed on its own (a 5xx after retries, a body
   * that is not JSON), with the failure: the other collections synced, and the next run asks
   * these again. Their edits wait in the outbox.
   */
  failing: Partial<Record<CollectionName | 'categories', { name: string; message: string }>>;
  /**
   * Other copies of the service's data in the same storage (named after another base URL, with
   * this mirror's tenant) whose edits the server has not acknowledged: what a changed address
   * leaves behind (the default database name follows the base URL, so another address opens
   * another, fresh copy). Looked for when the
   * mirror is made, and again by `findStranded()` and after `takeOverEdits()`. Push their edits
   * by opening that copy again (`createMirror({ dbName })`, with the address that works), or
   * hand them to this mirror (`takeOverEdits(dbName)`).
   *
   * `undefined` until the first look has finished, and for good where the runtime cannot list its
   * databases (no `indexedDB.databases()`: Firefox before 126); `[]` when there are none.
   */
  stranded: StrandedCopy[] | undefined;
  /**
   * The latest local creates moved to a fresh id before they were sent (up to 20, oldest first):
   * the server held another record under the id this mirror had generated (another device drew
   * the same id). Each names the collection, the old id (now the other device's record) and the
   * new one, which the record and every pending edit that pointed at it use from then on. Kept in
   * the database, so every tab shows them.
   */
  movedCreates: MovedCreate[];
  /**
   * Local creates found with no outbox entry and no copy on the server: records an edit wrote
   * without the entry that sends them, which no push would ever have sent (issue 39). The sync
   * queues each again as a create under its own id, so nothing is lost; `total` counts them since
   * the database was made, `latest` names the latest (up to 20, oldest first, with when each was
   * queued again). Any count above 0 is a fault worth reporting. Kept in the database, so every
   * tab shows them.
   */
  orphanedCreates: OrphanedCreates;
  /**
   * When the oldest edit the server has not acknowledged was made (local ms epoch): the first edit
   * of the longest-waiting entry of `pending()` (waiting, refused or in conflict alike), `undefined`
   * when every edit is acknowledged. An app shows its age (`Date.now() - oldestPendingEditAt`) and
   * warns when edits have waited for hours. Read from the outbox by the same live query as the
   * counts, so every tab shows it and it moves as soon as an entry is acknowledged; the age itself
   * is the app's to tick.
   */
  oldestPendingEditAt: number | undefined;
  /**
   * When each collection was last brought up to date (local ms epoch): the end of its latest
   * complete pull (a delta, a first sync, the pull after a push) or reconcile sweep. A collection
   * never pulled to the end (or reset by `resync()` and not pulled since) is left out. Read from
   * the database by a live query, so every tab shows it, and kept across restarts.
   */
  lastPulledAt: Partial<Record<CollectionName, number>>;
  /**
   * Under a history window (the option `historyWindow`), per collection it bounds, the time (ms)
   * from which the mirror holds every record: the edge its first sync stopped at, moved on by each
   * pruning. Older records are not kept (but those with an edit not yet acknowledged or a
   * conflict); the service's order history report has them. Left out for a collection the window
   * does not bound, or whose first sync has not reached the edge yet.
   */
  historyEdge: Partial<Record<CollectionName, number>>;
  /**
   * Each sync group's first sync (see the option `syncGroups`): `initialDone` once every
   * collection of the group has completed a full traversal. Computed from the checkpoints by a
   * live query, so every tab agrees and it holds across restarts; until they are read (just after
   * the mirror is made), no group with something to pull is complete. `whenSynced` waits for one.
   */
  groups: Record<G, SyncGroupStatus>;
  /**
   * The database's connection: `'reopening'` from the moment a lost connection was met (WebKit's
   * storage process died under the page) until the database is open again, without a reload; an
   * edit made meanwhile rejects with a `StorageError` (`problem: 'connection-lost'`) or waits for
   * the open. `'open'` otherwise (also before the first open).
   */
  storage: 'open' | 'reopening';
  /**
   * Whether the browser keeps this origin's storage for good (`navigator.storage.persisted()`):
   * `false` means best effort, which the browser may evict under storage pressure (and Safari
   * deletes after seven days of use without a visit; see `mirror.persist()` and docs/limits.md).
   * `true` also for a mirror on a durable store of its own (`openFileStorage` in Node: files on
   * disk). `undefined` where the runtime does not say (no `navigator.storage`: WebKitGTK, Node
   * with fake-indexeddb), and until it has answered. Read when the mirror starts, when its first run
   * ends, after later runs at most once a minute, and by `persist()`.
   */
  persisted: boolean | undefined;
  /**
   * The origin's usage and quota (`navigator.storage.estimate()`), where the runtime tells them;
   * `undefined` where it does not (no `navigator.storage`, a file store in Node), and until it has
   * answered. Read as {@link persisted} is. Figures are the engine's estimate for the whole origin.
   */
  quota: StorageQuota | undefined;
  /** When the last sync run completed successfully (local ms). */
  lastSyncAt: number | undefined;
  /** The last failure, without secrets. */
  lastError: { name: string; message: string } | undefined;
}

/** The status before anything has happened (no group known yet). */
export function initialStatus(online: boolean): SyncStatus {
  return {
    phase: 'idle',
    online,
    leader: false,
    pendingPushes: 0,
    rejected: 0,
    conflicts: 0,
    quarantined: 0,
    quarantinedBy: {},
    refusing: [],
    unavailable: [],
    failing: {},
    stranded: undefined,
    movedCreates: [],
    orphanedCreates: { total: 0, latest: [] },
    oldestPendingEditAt: undefined,
    lastPulledAt: {},
    historyEdge: {},
    groups: {},
    storage: 'open',
    persisted: undefined,
    quota: undefined,
    lastSyncAt: undefined,
    lastError: undefined,
  };
}
