import type { MirrorDb } from '../db/mirror-db.js';
import { assertCollection, listOutbox } from '../sync/outbox/index.js';
import type { CollectionName } from '../schema/collections.js';
import { listConflicts } from '../sync/conflicts/index.js';
import { createLeaderElector, defaultEnvironment, type SyncEnvironment } from '../sync/coordination/index.js';
import { ingestRecords } from '../sync/pull/index.js';
import { createEdits, type Edits } from './edits.js';
import { describeError } from './failure-kinds.js';
import { createFailurePolicy } from './failure-policy.js';
import { createLatestOrdersWatch, type LatestOrdersWatch } from './latest-orders-watch.js';
import { leaderLockName } from './copy-lead.js';
import { confirmLead } from './leadership.js';
import { Lifecycle } from './lifecycle.js';
import type { Mirror } from './mirror.js';
import { mirrorDatabase } from './mirror-database.js';
import { clientFor } from './mirror-client.js';
import { mirroredCollections } from './mirrored-collections.js';
import { liveObservable } from './live-query.js';
import { resolveMirrorOptions, type MirrorOptions, type ResolvedMirrorOptions } from './options.js';
import { touchOutbox } from './outbox-touch.js';
import { restingPhase } from './phases.js';
import { createQueries } from './queries.js';
import { createRunQueue } from './run-queue.js';
import { createStatusFeed, type StatusFeed } from './status-feed.js';
import { createStrandedControl, type StrandedControl } from './stranded-control.js';
import { createSyncControl, type SyncControl } from './sync-control.js';
import { createSyncEngine } from './sync-engine.js';
import { TokenGenerations } from './token-generations.js';

export type { Mirror };

/**
 * Creates a mirror. Nothing touches the network until `start()` or `syncNow()`; live queries
 * over `db` work at once, offline included.
 *
 * The mirror is the facade over a few collaborators: the {@link Lifecycle} (states and the events
 * that move them), the sync control (start, stop, runs through the run queue, the schedule and
 * the push after an edit), the status feed, the edits, and the latest-orders pollers.
 */
export function createMirror(options: MirrorOptions): Mirror {
  return mirrorFacade(assembleMirror(resolveMirrorOptions(options)));
}

/** The collaborators a mirror is made of. */
interface MirrorParts {
  db: MirrorDb;
  env: SyncEnvironment;
  collections: readonly CollectionName[];
  feed: StatusFeed;
  control: SyncControl;
  edits: Edits;
  watch: LatestOrdersWatch;
  stranded: StrandedControl;
}

/** Builds the collaborators from the resolved options and wires them to each other. */
function assembleMirror(options: ResolvedMirrorOptions): MirrorParts {
  const env: SyncEnvironment = { ...defaultEnvironment(), ...options.environment };
  const client = clientFor(options);
  const collections = mirroredCollections(options.collections);
  const name = options.dbName;
  const db = mirrorDatabase(name, options);
  const lifecycle = new Lifecycle();
  const queue = createRunQueue();
  const tokens = new TokenGenerations();
  const resting = () => restingPhase({ running: lifecycle.running, halted: lifecycle.halted, online: env.isOnline(), leader: elector.isLeader });
  const feed = createStatusFeed({ db, env, restingPhase: resting, onOutboxGrew: () => control.nudge() });
  const { puller, cycle } = createSyncEngine({
    db,
    client,
    collections,
    options,
    now: () => env.now(),
    feed,
    confirmLead: (signal) => confirmLead(elector, lifecycle.running, signal),
  });
  const elector = createLeaderElector({
    db,
    name: leaderLockName(name),
    env,
    leaseMs: options.leaderLeaseMs,
    onChange: (leader) => control.onLeaderChange(leader),
  });
  const failures = createFailurePolicy({
    db,
    lifecycle,
    tokens,
    isLeader: () => elector.isLeader,
    isOnline: () => env.isOnline(),
    restingPhase: resting,
    setStatus: feed.set,
  });
  const watch = createLatestOrdersWatch({ db, client, env, onError: (error) => feed.set({ lastError: describeError(error) }) });
  const control = createSyncControl({
    db,
    env,
    client,
    lifecycle,
    queue,
    feed,
    tokens,
    failures,
    elector,
    puller,
    cycle,
    collections,
    pollIntervalMs: options.pollIntervalMs,
    restingPhase: resting,
    async release() {
      watch.stopAll();
      feed.close();
      await stranded.close();
      db.close();
      await options.storage?.close?.();
    },
  });
  // Copies left by another address with edits in them are looked for at once, reading only.
  const stranded = createStrandedControl({ db, options, env, collections, setStatus: feed.set, assertOpen: (what) => control.assertOpen(what) });
  void stranded.find().catch(() => undefined);
  const edits = createEdits({
    db,
    collections,
    now: () => env.now(),
    assertOpen: (what) => control.assertOpen(what),
    afterEdit() {
      control.nudge();
      // A tab that does not push itself tells the leader's live query of the outbox.
      if (!(lifecycle.running && elector.isLeader)) touchOutbox(db, env.now());
    },
  });
  return { db, env, collections, feed, control, edits, watch, stranded };
}

/** The facade an app holds over the parts: each call goes to the collaborator it belongs to. */
function mirrorFacade(parts: MirrorParts): Mirror {
  const { db, env, feed, control, edits, watch, stranded } = parts;
  return {
    db,
    query: createQueries(db),
    status: feed.status,
    progress: feed.progress,
    start: () => control.start(),
    stop: () => control.stop(),
    close: () => control.close(),
    syncNow: (opts) => control.syncNow(opts),
    resync: (opts) => control.resync(opts),
    reconcile: (opts) => control.reconcile(opts),
    setToken: (token) => control.setToken(token),
    save: edits.save,
    remove: edits.remove,
    retryRejected: edits.retryRejected,
    resolveConflict: edits.resolveConflict,
    live: liveObservable,
    pending: () => listOutbox(db),
    conflicts: () => listConflicts(db),
    async ingest(collection, records) {
      control.assertOpen('ingest');
      assertCollection(collection, 'ingest');
      await ingestRecords(db, collection, records, () => env.now());
    },
    findStranded: () => stranded.find(),
    takeOverEdits: (dbName) => stranded.takeOver(dbName),
    watchLatestOrders(idCashRegister, opts) {
      control.assertOpen('watchLatestOrders');
      return watch.watch(idCashRegister, opts);
    },
  };
}
