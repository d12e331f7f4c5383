import type { MirrorDb } from '../db/mirror-db.js';
import type { CollectionName } from '../schema/collections.js';
import { createPuller, type Puller } from '../sync/pull/index.js';
import { createPusher } from '../sync/push/index.js';
import type { SyncClient } from '../sync/index.js';
import { MIRROR_DEFAULTS, type MirrorOptions } from './options.js';
import { createProgressTracker } from './progress-tracker.js';
import type { StatusFeed } from './status-feed.js';
import { createSyncCycle, type SyncCycle } from './sync-cycle.js';

/** What {@link createSyncEngine} is built from. */
export interface SyncEngineParts {
  db: MirrorDb;
  client: SyncClient;
  collections: readonly CollectionName[];
  options: MirrorOptions;
  now: () => number;
  feed: StatusFeed;
  /** Throws when this instance may not push now (see `confirmLead`); awaited before each push and each batch POST. */
  confirmLead(signal: AbortSignal | undefined): Promise<void>;
}

/** The puller, the pusher and the cycle that runs them, configured from the mirror's options. */
export interface SyncEngine {
  puller: Puller;
  cycle: SyncCycle;
}

/** Creates the {@link SyncEngine}: pulls report their progress to the feed (estimates added), and pushes ask for the lead first. */
export function createSyncEngine(parts: SyncEngineParts): SyncEngine {
  const { db, client, options, now, feed } = parts;
  const pageLimit = options.pageLimit ?? MIRROR_DEFAULTS.pageLimit;
  const skewMarginMs = options.skewMarginMs ?? MIRROR_DEFAULTS.skewMarginMs;
  const progress = createProgressTracker({ db, client, progress: feed.progress });
  // The progress ends with the feed (the mirror closed): a question still out is cancelled.
  feed.progress.subscribe({ complete: () => progress.close() });
  const puller = createPuller({ db, client, pageLimit, skewMarginMs, now, onProgress: (collection, p) => progress.onProgress(collection, p) });
  const pusher = createPusher({
    db,
    client,
    conflict: options.conflict ?? MIRROR_DEFAULTS.conflict,
    now,
    batch: options.batch,
    // Fencing per batch: the lead is checked again before every POST of a push, not only before it.
    beforeBatch: (signal) => parts.confirmLead(signal),
  });
  const cycle = createSyncCycle({
    db,
    client,
    puller,
    pusher,
    collections: parts.collections,
    categories: options.categories ?? MIRROR_DEFAULTS.categories,
    pageLimit,
    skewMarginMs,
    reconcileIntervalMs: options.reconcileIntervalMs ?? MIRROR_DEFAULTS.reconcileIntervalMs,
    now,
    onStart: (initial) => feed.set({ phase: initial ? 'initial-sync' : 'syncing', lastError: undefined }),
    beforePush: (signal) => parts.confirmLead(signal),
  });
  return { puller, cycle };
}
