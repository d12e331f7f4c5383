import type { MirrorDb } from '../db/mirror-db.js';
import { announceOutboxGrew, assertCollection, listOutbox } from '../sync/outbox/index.js';
import type { CollectionName } from '../schema/collections.js';
import { createSyncController, type SyncController } from '../sync/controller/index.js';
import { defaultEnvironment, leaderLockName, type SyncEnvironment } from '../sync/coordination/index.js';
import { createConfiguredCycle, createProgressTracker, describeError, orderByGroups, probesPerTraversal, pullSteps, type DefaultSyncGroupName } from '../sync/cycle/index.js';
import { HYDRATIONS, ingestRecords, type CollectionProgress } from '../sync/pull/index.js';
import type { SyncClient } from '../sync/index.js';
import { createClient } from '../client/index.js';
import { createEdits, type Edits } from './edits.js';
import { createLatestOrdersWatch, type LatestOrdersWatch } from '../sync/latest-orders/index.js';
import type { Mirror } from './mirror.js';
import { readonlyView } from './observable-value.js';
import { readRecordSyncState } from './record-sync-state.js';
import { listConflictViews } from './conflict-fields.js';
import { toId } from '../ids/id.js';
import type { MirrorDatabase, PendingEdit } from './typed-rows.js';
import { mirrorDatabase } from '../db/mirror-database.js';
import { releaseReopenFrame, reopenWhenClosed } from '../db/reopen.js';
import { liveObservable } from './live-query.js';
import { FORWARDED_CLIENT_OPTIONS, resolveMirrorOptions, type MirrorOptions, type ResolvedMirrorOptions } from './options.js';
import { createQueries } from './queries.js';
import { createStatusFeed, type StatusFeed } from './status-feed.js';
import { createStorageWatch, type StorageWatch } from './storage-watch.js';
import { whenGroupSynced } from './when-synced.js';
import { createStrandedControl, type StrandedControl } from '../sync/copies/index.js';

export type { Mirror };

/**
 * Creates a mirror. Nothing touches the network until `start()` or `syncNow()`; live queries
 * over `db` work at once, offline included.
 *
 * The mirror is the facade over a few collaborators: the sync controller (the one owner of the
 * sync's state: start, stop, leadership, pauses, and every run through its one queue), the status
 * feed, the edits, the stranded copies, and the latest-orders pollers.
 */
export function createMirror<const G extends string = DefaultSyncGroupName>(options: MirrorOptions<G>): Mirror<G> {
  return mirrorFacade(assembleMirror(resolveMirrorOptions(options)));
}

/** The collaborators a mirror is made of. */
interface MirrorParts {
  db: MirrorDb;
  env: SyncEnvironment;
  collections: readonly CollectionName[];
  feed: StatusFeed;
  controller: SyncController;
  edits: Edits;
  watch: LatestOrdersWatch;
  stranded: StrandedControl;
  /** `status.persisted` and `status.quota`, and `persist()`. */
  storageWatch: StorageWatch;
  /** Ends what outlives a stop (pollers, the status feed, the database and its storage), last thing in `close()`. */
  release: () => Promise<void>;
}

/** Builds the collaborators from the resolved options and wires them to each other. */
function assembleMirror(options: ResolvedMirrorOptions): MirrorParts {
  const env: SyncEnvironment = { ...defaultEnvironment(), ...options.environment };
  const client = clientFor(options);
  // Every run pulls in the order of the sync groups (the push keeps its own order, parents first).
  const collections = orderByGroups(options.syncGroups, mirroredCollections(options.collections));
  const name = options.dbName;
  const db = mirrorDatabase(name, options);
  const stopReopening = reopenWhenClosed(db);
  const feed = createStatusFeed({ db, online: env.isOnline(), collections, groups: options.syncGroups });
  // Pulls report their progress to the feed, with estimates of what is left added; the progress
  // ends with the feed (the mirror closed), and a question still out is cancelled.
  // Beside several groups, whose status shows a first sync's progress already, a traversal asks fewer probes.
  const groupsPulled = options.syncGroups.filter((group) => group.collections.some((c) => collections.includes(c))).length;
  const progress = createProgressTracker({ db, client, progress: feed.progress, maxProbes: probesPerTraversal(groupsPulled) });
  feed.progress.subscribe({ complete: () => progress.close() });
  const cycleSettings = {
    db,
    client,
    collections,
    steps: pullSteps(options.syncGroups, mirroredCollections(options.collections)),
    historyWindow: options.historyWindow,
    now: () => env.now(),
    pageLimit: options.pageLimit,
    pagesPerTransaction: options.pagesPerTransaction,
    skewMarginMs: options.skewMarginMs,
    reconcileIntervalMs: options.reconcileIntervalMs,
    categories: options.categories,
    conflict: options.conflict,
    batch: options.batch,
    onProgress: (collection: CollectionName, p: CollectionProgress) => progress.onProgress(collection, p),
  };
  const controller = createSyncController({
    db,
    env,
    client,
    collections,
    feed,
    pollIntervalMs: options.pollIntervalMs,
    leaderLockName: leaderLockName(name),
    leaseMs: options.leaderLeaseMs,
    // Each run has its own budget of questions for the estimate.
    cycle: (hooks) =>
      createConfiguredCycle(cycleSettings, {
        ...hooks,
        onRunStart: (initial) => {
          progress.runStarted();
          hooks.onRunStart(initial);
        },
      }),
  });
  feed.onOutboxGrew(() => controller.outboxGrew());
  const storageWatch = createStorageWatch({ env, durable: options.storage?.durable === true, set: feed.set });
  // The storage is read again once a run has ended (at once after the first, then at most once a minute), whatever its outcome.
  let running = false;
  feed.status.subscribe((s) => {
    const now = s.phase === 'syncing' || s.phase === 'initial-sync';
    if (running && !now) storageWatch.ranOnce();
    running = now;
  });
  const assertOpen = (what: string) => controller.assertOpen(what);
  // The pollers write outside the controller's queue: each poll's orders are applied in one
  // transaction by the pull's version rule (a newer `_v` wins), so they commute with a pull under
  // way, and in the queue a live sales overview would wait behind a first sync of minutes.
  const watch = createLatestOrdersWatch({ db, client, env, onError: (error) => feed.set({ lastError: describeError(error) }) });
  // Copies left by another address with edits in them are looked for at once, reading only.
  const stranded = createStrandedControl({ db, options, env, collections, setStatus: feed.set, assertOpen, inQueue: (work, caller) => controller.inQueue(work, caller) });
  void stranded.find().catch(() => undefined);
  const edits = createEdits({
    db,
    collections,
    now: () => env.now(),
    assertOpen,
    outboxGrew() {
      controller.outboxGrew();
      // A tab that does not push itself tells the leader's live query of the outbox.
      if (!controller.pushesHere) announceOutboxGrew(db, env.now());
    },
  });
  async function release(): Promise<void> {
    watch.stopAll();
    storageWatch.close();
    feed.close();
    await stranded.close();
    stopReopening();
    db.close();
    releaseReopenFrame(db);
    await options.storage?.close?.();
  }
  return { db, env, collections, feed, controller, edits, watch, stranded, storageWatch, release };
}

/**
 * The client a mirror syncs through: the one given, or one made from the connection options and
 * the client options the mirror passes on (`fetch`, `timeoutMs`, `retry`, `clientUserAgentHeader`,
 * `onRetry`), which `createClient` checks. Call after `resolveMirrorOptions`.
 */
export function clientFor(options: MirrorOptions): SyncClient {
  if (options.client) return options.client;
  const forwarded = Object.fromEntries(FORWARDED_CLIENT_OPTIONS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
  return createClient({ baseUrl: options.baseUrl!, token: options.token!, userAgent: options.userAgent!, ...forwarded });
}

/**
 * The collections a mirror keeps: those asked for, each followed by the hydration children of a
 * parent among them (`products` brings `product_price_matrix`, `orders` brings `order_details`),
 * which are then pulled, pushed and reconciled on their own like any other.
 */
export function mirroredCollections(asked: readonly CollectionName[]): CollectionName[] {
  const mirrored: CollectionName[] = [];
  for (const collection of asked) {
    if (!mirrored.includes(collection)) mirrored.push(collection);
    const child = HYDRATIONS[collection]?.child;
    if (child !== undefined && !asked.includes(child) && !mirrored.includes(child)) mirrored.push(child);
  }
  return mirrored;
}

/** The facade an app holds over the parts: each call goes to the collaborator it belongs to. */
function mirrorFacade(parts: MirrorParts): Mirror {
  const { db, env, feed, controller, edits, watch, stranded, storageWatch } = parts;
  let closing: Promise<void> | undefined;
  return {
    db: db as unknown as MirrorDatabase,
    query: createQueries(db),
    status: readonlyView(feed.status),
    progress: readonlyView(feed.progress),
    start() {
      const started = controller.start();
      // Asked of a mirror that may start (closed: `start()` rejects, and the watch is closed too).
      storageWatch.started();
      return started;
    },
    async persist() {
      controller.assertOpen('persist');
      return storageWatch.persist();
    },
    stop: () => controller.stop(),
    close: () => (closing ??= controller.close().then(parts.release)),
    syncNow: (opts) => controller.syncNow(opts),
    resync: (opts) => controller.resync(opts),
    reconcile: (opts) => controller.reconcile(opts),
    setToken: (token) => controller.setToken(token),
    save: edits.save,
    remove: edits.remove,
    retryRejected: edits.retryRejected,
    resolveConflict: edits.resolveConflict,
    transaction: edits.transaction,
    live: liveObservable,
    // The rows as the tables hold them, typed by their collection (the read face kept every field).
    pending: () => listOutbox(db) as Promise<PendingEdit[]>,
    conflicts: () => listConflictViews(db),
    async ingest(collection, records) {
      controller.assertOpen('ingest');
      assertCollection(collection, 'ingest');
      // Outside the controller's queue, as the pollers' writes are: one transaction applied by
      // version (a newer `_v` wins) commutes with a pull under way, and the app's own records
      // must not wait behind a first sync.
      await ingestRecords(db, collection, records, () => env.now());
    },
    async syncStateOf(collection, id) {
      controller.assertOpen('syncStateOf');
      assertCollection(collection, 'syncStateOf');
      return readRecordSyncState(db, collection, toId(id));
    },
    async whenSynced(group, opts) {
      controller.assertOpen('whenSynced');
      await whenGroupSynced(feed.status, group, opts?.signal);
    },
    findStranded: () => stranded.find(),
    takeOverEdits: (dbName, opts) => stranded.takeOver(dbName, opts?.signal),
    watchLatestOrders(idCashRegister, opts) {
      controller.assertOpen('watchLatestOrders');
      return watch.watch(idCashRegister, opts);
    },
  };
}
