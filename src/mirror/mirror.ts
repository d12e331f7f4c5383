import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { NoExtraFields, SaveInputOf } from '../schema/types.js';
import type { ReconcileReport } from '../sync/pull/index.js';
import type { Observable, ReadonlyObservableValue } from './observable-value.js';
import type { MirrorQueries } from './queries.js';
import type { SyncProgress, SyncStatus } from './status.js';
import type { StrandedCopy, TakeOverReport } from '../sync/copies/index.js';
import type { SyncReport } from '../sync/cycle/index.js';
import type { Conflict, MirrorDatabase, PendingEdit } from './typed-rows.js';
import type { MirrorTransaction } from './mirror-transaction.js';
import type { RecordSyncState } from './record-sync-state.js';

/**
 * The facade an app holds: an offline copy of the service that syncs itself. `G` is the names of
 * its sync groups (see the option `syncGroups`; by default `'reference' | 'catalogue' | 'recent' | 'history'`).
 */
export interface Mirror<G extends string = string> {
  /**
   * The Dexie database: `db.<collection>` for every collection (a `Table` of that collection's
   * records: `db.customers.get(id)` is a `Customer`), `db.categories`, and the sync tables.
   */
  readonly db: MirrorDatabase;
  /** Query helpers that hide tombstones (orders of a register, items of an order, product by barcode, ...). */
  readonly query: MirrorQueries;
  /**
   * Campaigns for leadership and, as leader, syncs now and then every `pollIntervalMs`. Called
   * while a `stop()` is still winding down (a UI effect's cleanup, React StrictMode), it waits for
   * that stop and then starts; a `stop()` called after it wins.
   */
  start(): Promise<void>;
  /**
   * Asks the browser to keep this origin's storage for good (`navigator.storage.persist()`), so
   * that it is not evicted under storage pressure, and resolves with whether it is kept; updates
   * `status.persisted` and `status.quota`. `start()` asks too, where the storage is not kept yet;
   * an app may ask again, from a "keep data on this device" button, say. The browser may refuse; what each engine does (web.dev's "Persistent
   * storage", WebKit's "Updates to Storage Policy"):
   * - Chromium decides without a prompt, from how the site is used (engagement, installed as an app).
   * - Firefox asks the person with a prompt, and this promise waits for the answer (with no one to
   *   answer, it does not settle: do not hold other work on it). `start()` does not wait for it.
   * - Safari (17 and later) decides without a prompt; a persistent origin is exempt from the
   *   eviction WebKit makes when all sites together pass the overall quota. A Home Screen web app
   *   is the way to keep data from Safari's deletion after seven days of use without a visit
   *   (docs/limits.md).
   * - WebKitGTK and Node with fake-indexeddb have no `navigator.storage`: resolves `false`. A mirror
   *   on a durable store of its own (`openFileStorage`) resolves `true`.
   *
   * A failure of the runtime's call resolves `false`; sync never depends on it. Rejects with a
   * `PosCloudError` once the mirror is closed.
   */
  persist(): Promise<boolean>;
  /**
   * Stops syncing (the data and the outbox stay) and resolves once the run under way has ended;
   * `start()` carries on where it left. `watchLatestOrders` pollers are not stopped (see there).
   */
  stop(): Promise<void>;
  /**
   * Runs one sync now (pull, push, pull of what was pushed) and reports what it did. After
   * `start()` it first waits (briefly) for the election to be decided; in a tab that follows
   * another nothing runs and the report says `ran: false`: the leader syncs for every tab. A run
   * cut short by `stop()`, `close()` or the loss of leadership rejects with an `AbortError`.
   *
   * Aborting `signal` ends the call with `signal.reason` (a `DOMException` named `AbortError`
   * unless the app gave another reason), as the client's calls do: at once while it waits for its
   * turn, else at the next request, page or batch. What was written by then stays (every page is
   * written with its cursor in one transaction, so the next run resumes there), and the schedule
   * goes on: an aborted call is no failure.
   */
  syncNow(opts?: { collections?: CollectionName[]; signal?: AbortSignal }): Promise<SyncReport>;
  /**
   * Validates a local edit, stores it and queues it for push, atomically. Returns the record's id.
   * The record is a create (every field the service needs; `id` left out, or given) or a partial
   * update (`id` and any subset of the fields), typed by `collection`: a field its schema does not
   * name is a compile error, unless named in `X` (see `SaveInputOf`).
   * A collection the mirror does not mirror (see the option `collections`) is a `ValidationError`:
   * its edits would never be pushed.
   */
  save<C extends CollectionName, X extends object = NoExtraFields>(collection: C, record: SaveInputOf<C, NoInfer<X>>): Promise<Id>;
  /**
   * An atomic edit of several records (booking a stock count: a stock-up and its stock history
   * rows): the edits `scope` makes through `tx.save` and `tx.remove`, with their outbox entries,
   * are kept all together or, when the scope throws, not at all (its error is rethrown), and go
   * out with the next push. `collections` names every collection the scope edits or reads. The
   * scope may await only these calls and reads of `tx.db`: anything else (a fetch, a timer) ends
   * the transaction early, and the edits after it fail.
   *
   * ```ts
   * await mirror.transaction(['stockup', 'stock_history'], async (tx) => {
   *   const id_stockup = await tx.save('stockup', stockup);
   *   for (const row of rows) await tx.save('stock_history', { ...row, id_stockup });
   * });
   * ```
   */
  transaction<T>(collections: readonly CollectionName[], scope: (tx: MirrorTransaction) => Promise<T>): Promise<T>;
  /** Soft-deletes a record locally and queues the deletion; a collection not mirrored is a `ValidationError`, as for `save`. */
  remove(collection: CollectionName, id: Id): Promise<void>;
  /** A Dexie live query: re-runs when the data it read changes, works offline. */
  live<T>(query: () => T | Promise<T>): Observable<T>;
  /** Phase, online, leader, pending pushes, conflicts, sync groups complete, storage kept and its quota, last sync, last error. */
  readonly status: ReadonlyObservableValue<SyncStatus<G>>;
  /** Per collection: records so far, pages, done. */
  readonly progress: ReadonlyObservableValue<SyncProgress>;
  /** Local edits the server has not acknowledged yet (pending, rejected and in conflict). */
  pending(): Promise<PendingEdit[]>;
  /**
   * Resets checkpoints and rebuilds by a full traversal, without clearing what the user sees.
   * `signal` ends it as it ends `syncNow`; a collection reset and not swept yet is traversed in
   * full by the next run.
   */
  resync(opts?: { collections?: CollectionName[]; signal?: AbortSignal }): Promise<void>;
  /**
   * Runs a reconcile sweep now: repairs records the deltas missed and removes vanished ones.
   * `signal` ends it as it ends `syncNow` (the pages swept by then stay applied).
   */
  reconcile(opts?: { collections?: CollectionName[]; signal?: AbortSignal }): Promise<ReconcileReport[]>;
  /** Puts rejected edits (all, or those of the given record ids) back in line for the next push. Returns how many. */
  retryRejected(ids?: Id[]): Promise<number>;
  /**
   * Where one record stands between this device and the server: in step, pending, sent without an
   * answer, rejected (with the reason) or in conflict (see {@link RecordSyncState}). Inside
   * `live()` (or `useRecordSyncState`) it follows every change.
   */
  syncStateOf(collection: CollectionName, id: Id): Promise<RecordSyncState>;
  /** Unresolved conflicts. */
  conflicts(): Promise<Conflict[]>;
  /**
   * Resolves once the first sync of the sync group `group` is complete (`status.groups[group]`,
   * see the option `syncGroups`): at once when it already is, in this tab or after a restart,
   * whichever tab synced it. An app shows a screen as soon as its data is in, while the rest of
   * the first sync streams on: `await mirror.whenSynced('reference')`. It only waits: the sync
   * itself runs after `start()` or `syncNow()`.
   *
   * Rejects with a `ValidationError` for a group the mirror does not have, with `signal.reason`
   * when `signal` aborts, and with a `PosCloudError` when the mirror is closed (or closes first).
   */
  whenSynced(group: G, opts?: { signal?: AbortSignal }): Promise<void>;
  /** Resolves a conflict (`key` = `${collection}:${id}`) and pushes the outcome. */
  resolveConflict(key: string, choice: 'local' | 'server' | object): Promise<void>;
  /** Applies records that arrived by other means (webhooks, a relay) through the pull's rules. */
  ingest(collection: CollectionName, records: unknown[]): Promise<void>;
  /**
   * Polls `orders/latest/{id}` every `intervalMs` (default 5 000) and applies what it finds;
   * returns a function that stops it. It polls from this call, in whichever tab calls it, whether
   * the mirror is started, stopped or following, until that function or `close()` is called.
   * Throws a `ValidationError` at once for an `idCashRegister` that is not a record id, and for an
   * `intervalMs` that is not an integer from 1 to 2 147 483 647 (the longest timer delay).
   */
  watchLatestOrders(idCashRegister: Id, opts?: { intervalMs?: number; idPayment?: number }): () => void;
  /**
   * Replaces the API token; a sync stopped by an auth failure resumes. A run still under way with
   * the old token that is refused for it does not stop sync: the next run uses the new token.
   */
  setToken(token: string): void;
  /**
   * Looks again for other copies in this storage that hold edits the server has not acknowledged
   * (see `status.stranded`, which it updates), and resolves with them; `undefined` where the
   * runtime cannot list its databases. Each copy is read without being written or upgraded.
   */
  findStranded(): Promise<StrandedCopy[] | undefined>;
  /**
   * Hands the edits of another copy (`dbName`, from `status.stranded`) to this mirror: they move
   * into its outbox with their bases, states and conflicts, and go out with its next push; they
   * leave the other copy in the same move, so nothing is pushed twice or lost (a move cut short is
   * finished by the next call). Both copies must hold records of the same tenant (`id_c`), else a
   * `ValidationError`; one another tab or worker syncs now is refused (`PosCloudError`), and one
   * written by a newer version of the library too (`StorageError`). An older copy is upgraded.
   * Edits that cannot move safely stay there, listed in the report with why (this mirror has its
   * own edit of the record, for one): open that copy with `dbName` to push them.
   *
   * Aborting `signal` ends the call with `signal.reason`, as for `syncNow`; the move stops before
   * its next step, each of which leaves both copies consistent, and the next call finishes it.
   */
  takeOverEdits(dbName: string, opts?: { signal?: AbortSignal }): Promise<TakeOverReport>;
  /**
   * Stops everything and closes the database: the schedule, a `syncNow()`, `resync()` or
   * `reconcile()` under way (started or not: they end with an `AbortError`, and `close()` waits
   * for them), and every `watchLatestOrders` poller.
   */
  close(): Promise<void>;
}
