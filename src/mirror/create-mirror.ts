import { Dexie, liveQuery } from 'dexie';
import { createClient } from '../client/index.js';
import { defaultDbName } from '../db/db-name.js';
import { MirrorDb } from '../db/mirror-db.js';
import type { ConflictRow, OutboxEntry } from '../db/sync-rows.js';
import { AuthError, PosCloudError, ValidationError } from '../errors/index.js';
import { describeInput } from '../ids/describe-input.js';
import { tryToId, type Id } from '../ids/id.js';
import { COLLECTIONS, isCollectionName, type CollectionName } from '../schema/collections.js';
import { resolveConflict as resolveConflictRow, listConflicts } from '../sync/conflicts/conflict-resolution.js';
import { defaultEnvironment, type SyncEnvironment } from '../sync/coordination/environment.js';
import { HYDRATIONS } from '../sync/pull/hydrations.js';
import { applyReadRecords, ingestRecords } from '../sync/pull/ingest.js';
import { createLeaderElector } from '../sync/coordination/leader.js';
import { assertCollection, removeLocal, saveLocal } from '../sync/outbox/local-edit.js';
import { retryRejected } from '../sync/outbox/outbox-retry.js';
import { ObservableValue, type Observable } from './observable-value.js';
import { createPuller } from '../sync/pull/pull.js';
import { createPusher } from '../sync/push/push.js';
import { quarantineRows } from '../sync/pull/quarantine.js';
import type { ReconcileReport } from '../sync/pull/reconcile.js';
import { createScheduler, type FailureAction } from '../sync/coordination/scheduler.js';
import type { SyncClient } from '../sync/sync-client.js';
import { MIRROR_DEFAULTS, validateMirrorOptions, type MirrorOptions } from './options.js';
import { createQueries, type MirrorQueries } from './queries.js';
import { resolveIndexedDb } from './resolve-indexeddb.js';
import { initialStatus, type SyncPhase, type SyncProgress, type SyncStatus } from './status.js';
import { describeError, isAbort, isClosedDatabase, isQuotaError } from './failure-kinds.js';
import { createSyncCycle } from './sync-cycle.js';
import { emptyReport, type SyncReport } from './sync-report.js';
import { pendingEntries } from '../sync/outbox/outbox-pending.js';

/** The facade an app holds: an offline copy of the service that syncs itself. */
export interface Mirror {
  /** The Dexie database: `db.<collection>` for every collection, `db.categories`, and the sync tables. */
  readonly db: MirrorDb;
  /** Query helpers that hide tombstones (orders of a register, items of an order, product by barcode, ...). */
  readonly query: MirrorQueries;
  /**
   * Campaigns for leadership and, as leader, syncs now and then every `pollIntervalMs`. Called
   * while a `stop()` is still winding down (a UI effect's cleanup, React StrictMode), it waits for
   * that stop and then starts; a `stop()` called after it wins.
   */
  start(): Promise<void>;
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
   */
  syncNow(opts?: { collections?: CollectionName[] }): Promise<SyncReport>;
  /**
   * Validates a local edit, stores it and queues it for push, atomically. Returns the record's id.
   * A collection the mirror does not mirror (see the option `collections`) is a `ValidationError`:
   * its edits would never be pushed.
   */
  save(collection: CollectionName, record: object): Promise<Id>;
  /** Soft-deletes a record locally and queues the deletion; a collection not mirrored is a `ValidationError`, as for `save`. */
  remove(collection: CollectionName, id: Id): Promise<void>;
  /** A Dexie live query: re-runs when the data it read changes, works offline. */
  live<T>(query: () => T | Promise<T>): Observable<T>;
  /** Phase, online, leader, pending pushes, conflicts, last sync, last error. */
  readonly status: ObservableValue<SyncStatus> & Observable<SyncStatus>;
  /** Per collection: records so far, pages, done. */
  readonly progress: ObservableValue<SyncProgress> & Observable<SyncProgress>;
  /** Local edits the server has not acknowledged yet (pending, rejected and in conflict). */
  pending(): Promise<OutboxEntry[]>;
  /** Resets checkpoints and rebuilds by a full traversal, without clearing what the user sees. */
  resync(opts?: { collections?: CollectionName[] }): Promise<void>;
  /** Runs a reconcile sweep now: repairs records the deltas missed and removes vanished ones. */
  reconcile(opts?: { collections?: CollectionName[] }): Promise<ReconcileReport[]>;
  /** Puts rejected edits (all, or those of the given record ids) back in line for the next push. Returns how many. */
  retryRejected(ids?: Id[]): Promise<number>;
  /** Unresolved conflicts. */
  conflicts(): Promise<ConflictRow[]>;
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
   * Stops everything and closes the database: the schedule, a `syncNow()`, `resync()` or
   * `reconcile()` under way (started or not: they end with an `AbortError`, and `close()` waits
   * for them), and every `watchLatestOrders` poller.
   */
  close(): Promise<void>;
}

/** How long `syncNow()` after `start()` waits for the election to be decided (ms). */
const ELECTION_WAIT_MS = 5_000;

/** The `_sync_meta` row a tab that does not push itself touches after a local edit, so that the leader's live query sees it. */
const OUTBOX_TOUCHED = 'outbox-touched';

/**
 * The collections a mirror keeps: those asked for, each followed by the hydration children of a
 * parent among them (`products` brings `product_price_matrix`, `orders` brings `order_details`),
 * which are then pulled, pushed and reconciled on their own like any other.
 */
function mirroredCollections(asked: readonly CollectionName[]): CollectionName[] {
  const mirrored: CollectionName[] = [];
  for (const collection of asked) {
    if (!mirrored.includes(collection)) mirrored.push(collection);
    const child = HYDRATIONS[collection]?.child;
    if (child !== undefined && !asked.includes(child) && !mirrored.includes(child)) mirrored.push(child);
  }
  return mirrored;
}

/** The largest delay `setTimeout` honours (ms); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Creates a mirror. Nothing touches the network until `start()` or `syncNow()`; live queries
 * over `db` work at once, offline included.
 */
export function createMirror(options: MirrorOptions): Mirror {
  validateMirrorOptions(options);
  const env: SyncEnvironment = { ...defaultEnvironment(), ...options.environment };
  const client: SyncClient =
    options.client ??
    (createClient({ baseUrl: options.baseUrl!, token: options.token!, userAgent: options.userAgent! }) as unknown as SyncClient);
  const collections: CollectionName[] = mirroredCollections(options.collections ?? COLLECTIONS);
  const name = options.dbName ?? defaultDbName(options.baseUrl!, options.tenant);
  const idb = resolveIndexedDb({ indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange });
  const db = new MirrorDb(name, { ...idb, indexes: options.indexes });
  // Dexie's liveQuery stays silent unless its global dependencies name an IndexedDB, which a
  // runtime without one (Node) lacks: lend it ours. A runtime with its own is left alone.
  if (!Dexie.dependencies.indexedDB && idb.indexedDB && idb.IDBKeyRange) {
    Dexie.dependencies.indexedDB = idb.indexedDB;
    Dexie.dependencies.IDBKeyRange = idb.IDBKeyRange;
  }
  const pollIntervalMs = options.pollIntervalMs ?? MIRROR_DEFAULTS.pollIntervalMs;
  const reconcileIntervalMs = options.reconcileIntervalMs ?? MIRROR_DEFAULTS.reconcileIntervalMs;
  const skewMarginMs = options.skewMarginMs ?? MIRROR_DEFAULTS.skewMarginMs;
  const pageLimit = options.pageLimit ?? MIRROR_DEFAULTS.pageLimit;

  const status = new ObservableValue<SyncStatus>(initialStatus(env.isOnline()));
  const progress = new ObservableValue<SyncProgress>({ collections: {} });
  const setStatus = (patch: Partial<SyncStatus>) => status.update((s) => ({ ...s, ...patch }));

  const puller = createPuller({
    db,
    client,
    pageLimit,
    skewMarginMs,
    now: env.now,
    onProgress: (collection, p) => progress.update((s) => ({ collections: { ...s.collections, [collection]: p } })),
  });
  const pusher = createPusher({
    db,
    client,
    conflict: options.conflict ?? MIRROR_DEFAULTS.conflict,
    now: env.now,
    batch: options.batch,
    // Fencing per batch: the lead is checked again before every POST of a push, not only before it.
    beforeBatch: (signal) => confirmLead(signal),
  });

  let closed = false;
  let closing: Promise<void> | undefined;
  let started = false;
  // The last of start() and stop() called: a start() waiting for a stop() to finish gives way to a later stop().
  let wanted = false;
  // Between stop() and the next start(): the status rests at 'stopped'.
  let halted = false;
  let stopping: Promise<void> | undefined;
  // What runs outside the schedule (syncNow, the push after an edit, resync, reconcile) stops with it:
  // aborted by stop(), close() and the loss of leadership, and renewed after each but close().
  let lifetime = new AbortController();
  let exclusive: Promise<unknown> = Promise.resolve();
  const watchers = new Set<() => void>();
  // Bumped by setToken(): a run refused for a token replaced while it ran is no reason to pause.
  let tokenGeneration = 0;
  const staleAuthFailures = new WeakSet<object>();

  /** Runs `fn` after every earlier run: pulls and pushes of one instance never overlap. */
  function runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = exclusive.then(fn, fn);
    exclusive = result.catch(() => undefined);
    return result;
  }

  const cycle = createSyncCycle({
    db,
    client,
    puller,
    pusher,
    collections,
    categories: options.categories ?? MIRROR_DEFAULTS.categories,
    pageLimit,
    skewMarginMs,
    reconcileIntervalMs,
    now: env.now,
    onStart: (initial) => setStatus({ phase: initial ? 'initial-sync' : 'syncing', lastError: undefined }),
    beforePush: (signal) => confirmLead(signal),
  });

  /**
   * Only the leader pushes. Checked again right before each push and each batch POST of it: a tab
   * that lost the lease (throttled, say) steps down here instead of posting what the new leader
   * posts too.
   */
  async function confirmLead(signal: AbortSignal | undefined): Promise<void> {
    if (started && !(await elector.confirm())) throw signal?.aborted ? signal.reason : new DOMException('not the leader any more', 'AbortError');
    // A mirror not started (or stopped) pushes only when no other tab leads: that one pushes the same outbox.
    if (!started && (await elector.heldByAnother())) throw new DOMException('another tab or worker leads and pushes', 'AbortError');
  }

  /**
   * The phase when nothing runs: what the status shows between runs, on a change of leader and
   * when the network comes back.
   */
  function restingPhase(): SyncPhase {
    if (!started && halted) return 'stopped';
    if (!env.isOnline()) return 'offline';
    return started && !elector.isLeader ? 'following' : 'idle';
  }

  /** After a run cut short on purpose: a status still saying it syncs goes back to rest. */
  function settleAborted(): void {
    const phase = status.value.phase;
    if (phase === 'syncing' || phase === 'initial-sync') setStatus({ phase: restingPhase() });
  }

  /** Runs `fn`, marking an auth failure it meets after `setToken()` replaced the token it started with. */
  async function withCurrentToken<T>(fn: () => Promise<T>): Promise<T> {
    const generation = tokenGeneration;
    try {
      return await fn();
    } catch (error) {
      if (error instanceof AuthError && generation !== tokenGeneration) staleAuthFailures.add(error);
      throw error;
    }
  }

  async function runCycle(signal: AbortSignal, only?: CollectionName[]): Promise<SyncReport> {
    let report: SyncReport;
    try {
      report = await withCurrentToken(() => cycle.run(signal, only));
    } catch (error) {
      if (signal.aborted || isAbort(error)) settleAborted();
      throw error;
    }
    setStatus({ phase: restingPhase(), lastSyncAt: report.finishedAt, lastError: undefined });
    return report;
  }

  /** A failure of a `syncNow()` or of the push after an edit (`signal`: the run's): not one when the run was cut short on purpose. */
  function reportFailure(error: unknown, signal: AbortSignal): FailureAction {
    if (signal.aborted) return 'retry';
    return onFailure(error);
  }

  function onFailure(error: unknown): FailureAction {
    // A run cut short by stop(), close() or a step down is not a failure to report.
    if (isAbort(error) && (!started || !elector.isLeader)) return 'retry';
    const lastError = describeError(error);
    if (staleAuthFailures.has(error as object)) {
      // Refused for the token setToken() has replaced since: the next run uses the new one.
      setStatus({ phase: restingPhase() });
      return 'retry';
    }
    if (error instanceof AuthError) {
      setStatus({ phase: 'auth-error', lastError });
      return 'pause';
    }
    if (isQuotaError(error)) {
      setStatus({ phase: 'storage-error', lastError });
      return 'pause';
    }
    if (isClosedDatabase(error) && !closed) {
      // A lost IndexedDB connection (Safari drops them) is reopened and the run retried.
      void db.open().catch(() => undefined);
    }
    setStatus({ phase: env.isOnline() ? 'error' : 'offline', lastError, online: env.isOnline() });
    return 'retry';
  }

  const scheduler = createScheduler({
    env,
    intervalMs: pollIntervalMs,
    onFailure,
    run: (signal) => runExclusive(() => runCycle(signal)).then(() => undefined),
  });

  const elector = createLeaderElector({
    db,
    name: `pos-cloud-mirror-leader:${name}`,
    env,
    leaseMs: options.leaderLeaseMs ?? MIRROR_DEFAULTS.leaderLeaseMs,
    onChange(leader) {
      if (!leader && started) {
        // Another tab leads now: what this one still has under way (a push after an edit, a syncNow) stops too.
        lifetime.abort(new DOMException('another tab or worker leads now', 'AbortError'));
        lifetime = new AbortController();
      }
      setStatus({ leader, phase: started ? restingPhase() : status.value.phase });
      if (leader && started) scheduler.start();
      if (!leader) void scheduler.stop();
    },
  });

  // Counts for the status come from the database itself, so every tab shows the same numbers.
  let outboxTouched: unknown;
  const counts = liveQuery(async () => ({
    pendingPushes: await db._sync_outbox.where('state').equals('pending').count(),
    rejected: await db._sync_outbox.where('state').equals('rejected').count(),
    conflicts: await db._sync_conflicts.count(),
    quarantined: await db._sync_quarantine.count(),
    touched: (await db._sync_meta.get(OUTBOX_TOUCHED))?.value,
  })).subscribe({
    next: ({ touched, ...c }) => {
      // New pending edits, or an edit another tab made (it touches a row: an edit folded into a
      // pending entry leaves the count as it was): the leader pushes them now, not at its next poll.
      const grew = c.pendingPushes > status.value.pendingPushes || touched !== outboxTouched;
      outboxTouched = touched;
      setStatus(c);
      if (grew) nudge();
    },
    error: () => undefined,
  });

  /** After a local edit in a tab that does not push it itself, tells the leader's live query (above). */
  function touchOutbox(): void {
    if (started && elector.isLeader) return;
    void db._sync_meta.put({ key: OUTBOX_TOUCHED, value: `${env.now()}-${Math.random()}` }).catch(() => undefined);
  }

  const unsubscribeConnectivity = env.onConnectivity((online) => {
    const phase = status.value.phase;
    // A mirror waiting for a token or for storage, stopped or closed says why it does not sync; the network does not change that.
    if (phase === 'auth-error' || phase === 'storage-error' || phase === 'stopped' || phase === 'closed') setStatus({ online });
    else if (!online) setStatus({ online, phase: 'offline' });
    else setStatus({ online, ...(phase === 'offline' ? { phase: restingPhase() } : {}) });
  });

  function assertOpen(what: string): void {
    if (closed) throw new PosCloudError(`${what}: the mirror is closed`);
  }

  /** Refuses an edit of a known collection the mirror leaves out: it would be queued and never pushed. */
  function assertMirrored(collection: unknown, what: string): void {
    // An unknown name is left to the edit's own check, which lists the known ones.
    if (!isCollectionName(collection) || collections.includes(collection)) return;
    const list = collections.join(', ');
    throw new ValidationError(
      `${what}: collection "${collection}" is not mirrored (the option collections gives ${list}): its edits would never be pushed`,
      { issues: [{ path: ['collection'], message: `not among the mirrored collections (option collections): ${list}` }] },
    );
  }

  /** Waits, at most {@link ELECTION_WAIT_MS}, until the first campaign since `start()` has an outcome. */
  async function electionDecided(): Promise<void> {
    let timer: unknown;
    await Promise.race([elector.decided(), new Promise<void>((resolve) => (timer = env.setTimeout(resolve, ELECTION_WAIT_MS)))]);
    env.clearTimeout(timer);
  }

  /** After a local edit, a started leader pushes soon instead of waiting for the next poll. */
  let nudgeTimer: unknown;
  function nudge(): void {
    if (!started || !elector.isLeader || scheduler.paused || nudgeTimer !== undefined) return;
    // A short pause gathers a burst of edits into one push.
    nudgeTimer = env.setTimeout(() => {
      nudgeTimer = undefined;
      void runExclusive(async () => {
        // Checked again when its turn comes: this tab may have stopped or stepped down meanwhile.
        if (!started || !elector.isLeader) return;
        const signal = lifetime.signal;
        try {
          await withCurrentToken(() => cycle.pushPending(signal));
        } catch (error) {
          // Paused, not stopped, so that `setToken` (through `resume`) brings the schedule back.
          if (reportFailure(error, signal) === 'pause') scheduler.pause();
        }
      });
    }, 50);
  }

  const mirror: Mirror = {
    db,
    query: createQueries(db),
    status,
    progress,
    async start() {
      assertOpen('start');
      wanted = true;
      // A stop() still winding down finishes first: it would otherwise stop what this start begins.
      while (stopping) await stopping;
      if (!wanted || started || closed) return;
      started = true;
      halted = false;
      lifetime = new AbortController();
      setStatus({ phase: restingPhase() });
      void env.persistStorage().catch(() => undefined);
      elector.start();
    },
    stop() {
      wanted = false;
      if (!started) return stopping ?? Promise.resolve();
      started = false;
      halted = true;
      if (nudgeTimer !== undefined) env.clearTimeout(nudgeTimer);
      nudgeTimer = undefined;
      lifetime.abort(new DOMException('mirror stopped', 'AbortError'));
      // A syncNow(), resync() or reconcile() called after this stop runs, as on a mirror never started.
      lifetime = new AbortController();
      const done = (async () => {
        await scheduler.stop();
        await elector.stop();
        await exclusive;
        if (!closed) setStatus({ phase: 'stopped', leader: false });
      })();
      const tracked: Promise<void> = done.finally(() => {
        if (stopping === tracked) stopping = undefined;
      });
      stopping = tracked;
      return tracked;
    },
    async syncNow(opts = {}) {
      assertOpen('syncNow');
      const only = opts.collections;
      if (only !== undefined) only.forEach((c) => assertCollection(c, 'syncNow'));
      // Right after start() the election may not be decided yet: an undecided tab is no follower.
      if (started) await electionDecided();
      assertOpen('syncNow');
      if (started && !elector.isLeader) return emptyReport(false, env.now(), []);
      // The lifetime the call was made in: a stop(), close() or step-down before its turn comes ends it.
      const called = lifetime.signal;
      let signal = called;
      try {
        const report = await runExclusive(async () => {
          // Checked when its turn comes: a tab that follows another (or stepped down while waiting) does not run.
          if (started && !elector.isLeader) return undefined;
          called.throwIfAborted();
          signal = lifetime.signal;
          return runCycle(signal, only);
        });
        if (report === undefined) return emptyReport(false, env.now(), []);
        if (scheduler.paused) scheduler.resume();
        return report;
      } catch (error) {
        if (reportFailure(error, signal) === 'pause') scheduler.pause();
        throw error;
      }
    },
    async save(collection, record) {
      assertOpen('save');
      assertMirrored(collection, 'save');
      const id = await saveLocal(db, collection, record, { now: env.now() });
      nudge();
      touchOutbox();
      return id;
    },
    async remove(collection, id) {
      assertOpen('remove');
      assertMirrored(collection, 'remove');
      await removeLocal(db, collection, id, { now: env.now() });
      nudge();
      touchOutbox();
    },
    live(query) {
      return liveQuery(query) as unknown as Observable<never>;
    },
    pending: () => pendingEntries(db),
    async resync(opts = {}) {
      assertOpen('resync');
      const only = opts.collections ?? collections;
      only.forEach((c) => assertCollection(c, 'resync'));
      const called = lifetime.signal;
      await runExclusive(async () => {
        called.throwIfAborted();
        for (const collection of only) await puller.reset(collection);
        for (const collection of only) await cycle.reconcile(collection, lifetime.signal);
      });
    },
    async reconcile(opts = {}) {
      assertOpen('reconcile');
      const only = opts.collections ?? collections;
      only.forEach((c) => assertCollection(c, 'reconcile'));
      const called = lifetime.signal;
      return runExclusive(async () => {
        called.throwIfAborted();
        const reports: ReconcileReport[] = [];
        for (const collection of only) reports.push(await cycle.reconcile(collection, lifetime.signal));
        return reports;
      });
    },
    async retryRejected(ids) {
      assertOpen('retryRejected');
      const count = await retryRejected(db, ids);
      if (count > 0) {
        nudge();
        touchOutbox();
      }
      return count;
    },
    conflicts: () => listConflicts(db),
    async resolveConflict(key, choice) {
      assertOpen('resolveConflict');
      await resolveConflictRow(db, key, choice);
      nudge();
      touchOutbox();
    },
    async ingest(collection, records) {
      assertOpen('ingest');
      assertCollection(collection, 'ingest');
      await ingestRecords(db, collection, records, env.now);
    },
    watchLatestOrders(idCashRegister, opts = {}) {
      assertOpen('watchLatestOrders');
      const register = tryToId(idCashRegister);
      if (register === undefined || register === '0') {
        throw new ValidationError(`watchLatestOrders: idCashRegister must be a record id (digits), not ${describeInput(idCashRegister)}`, {
          issues: [{ path: ['idCashRegister'], message: 'must be a record id' }],
        });
      }
      const intervalMs = opts.intervalMs ?? MIRROR_DEFAULTS.latestOrdersIntervalMs;
      if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > MAX_TIMER_MS) {
        throw new ValidationError(`watchLatestOrders: intervalMs must be an integer from 1 to ${MAX_TIMER_MS}, not ${describeInput(intervalMs)}`, {
          issues: [{ path: ['intervalMs'], message: `must be an integer from 1 to ${MAX_TIMER_MS}` }],
        });
      }
      const controller = new AbortController();
      let timer: unknown;
      const poll = async () => {
        try {
          const orders = await client.latestOrders(register, {
            signal: controller.signal,
            ...(opts.idPayment !== undefined ? { idPayment: opts.idPayment } : {}),
          });
          // Orders the read schema refuses are quarantined, as a pull would.
          await applyReadRecords(db, 'orders', orders, quarantineRows('orders', orders.rejected ?? [], env.now()));
        } catch (error) {
          if (!controller.signal.aborted) setStatus({ lastError: describeError(error) });
        }
        if (!controller.signal.aborted) timer = env.setTimeout(() => void poll(), intervalMs);
      };
      void poll();
      const stopWatching = () => {
        controller.abort();
        if (timer !== undefined) env.clearTimeout(timer);
        watchers.delete(stopWatching);
      };
      watchers.add(stopWatching);
      return stopWatching;
    },
    setToken(token) {
      if (typeof token !== 'string' || token.length === 0) {
        throw new ValidationError('setToken: the token must be a non-empty string', { issues: [{ path: ['token'], message: 'empty' }] });
      }
      if (!client.setToken) throw new PosCloudError('setToken: the client given to createMirror cannot change its token');
      client.setToken(token);
      tokenGeneration++;
      if (status.value.phase === 'auth-error') setStatus({ phase: restingPhase(), lastError: undefined });
      scheduler.resume();
    },
    close() {
      closing ??= (async () => {
        closed = true;
        await mirror.stop();
        // A syncNow(), resync() or reconcile() of a mirror never started is not ended by stop().
        lifetime.abort(new DOMException('mirror closed', 'AbortError'));
        for (let last: unknown; last !== exclusive; ) {
          last = exclusive;
          await last;
        }
        for (const stop of [...watchers]) stop();
        counts.unsubscribe();
        unsubscribeConnectivity();
        setStatus({ phase: 'closed', leader: false });
        status.complete();
        progress.complete();
        db.close();
      })();
      return closing;
    },
  };
  return mirror;
}
