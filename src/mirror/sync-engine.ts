import type { MirrorDb } from '../db/mirror-db.js';
import type { CollectionName } from '../schema/collections.js';
import { createPuller } from '../sync/pull/index.js';
import { createPusher } from '../sync/push/index.js';
import type { SyncClient } from '../sync/index.js';
import { MIRROR_DEFAULTS, type MirrorOptions } from './options.js';
import type { StatusFeed } from './status-feed.js';
import type { EngineHooks, SyncEngine } from './sync-controller.js';
import { createSyncCycle } from './sync-cycle.js';

/** What {@link createSyncEngine} is built from. */
export interface SyncEngineParts extends EngineHooks {
  db: MirrorDb;
  client: SyncClient;
  collections: readonly CollectionName[];
  options: MirrorOptions;
  now: () => number;
  feed: StatusFeed;
}

/** Creates the {@link SyncEngine} (the puller, the pusher and the cycle that runs them, configured from the mirror's options): pulls report their progress to the feed, and pushes ask for the lead first. */
export function createSyncEngine(parts: SyncEngineParts): SyncEngine {
  const { db, client, options, now, feed } = parts;
  const pageLimit = options.pageLimit ?? MIRROR_DEFAULTS.pageLimit;
  const skewMarginMs = options.skewMarginMs ?? MIRROR_DEFAULTS.skewMarginMs;
  const puller = createPuller({
    db,
    client,
    pageLimit,
    skewMarginMs,
    now,
    onProgress: (collection, p) => feed.progress.update((s) => ({ collections: { ...s.collections, [collection]: p } })),
  });
  const pusher = createPusher({
    db,
    client,
    conflict: options.conflict ?? MIRROR_DEFAULTS.conflict,
    now,
    batch: options.batch,
    // Fencing per batch: the lead is checked again before every POST of a push, not only before it.
    beforeBatch: (signal) => parts.requireLead(signal),
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
    onStart: (initial) => parts.onRunStart(initial),
    beforePush: (signal) => parts.requireLead(signal),
  });
  return { puller, cycle };
}
