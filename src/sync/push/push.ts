import type { MirrorDb } from '../../db/mirror-db.js';
import { z } from 'zod';
import type { CollectionName } from '../../schema/collections.js';
import type { ConflictStrategy } from '../conflicts/conflict-strategy.js';
import { batchOption, conflictOption } from './push-options.js';
import { jsonBytes, planBatches, type BatchLimits } from './batches.js';
import { fnOption, parseOptionsOrThrow } from '../../schema/option-schema.js';
import { dropInflight, writeInflight } from '../../db/inflight.js';
import { pushOrder } from '../records/relations.js';
import { moveCollidingCreates } from './id-collisions.js';
import { inflightEntryOf, prepareCollection, type OutgoingRecord } from './prepare.js';
import type { MovedCreate } from '../../db/sync-rows.js';
import { createBatchSender, settlementQueue, type BeforeBatch, type PushClient } from './send-batch.js';

export type { BeforeBatch, PushClient };
import { addCounts, emptyCounts, emptyPushReport, type PushCounts, type PushReport } from './push-report.js';

export type { PushCounts, PushReport };

/** The conflict strategy option of the pusher and of `createMirror` (see {@link ConflictStrategy}). */
export type ConflictOption = ConflictStrategy;

/** Options of {@link createPusher}. */
export interface PusherOptions {
  db: MirrorDb;
  client: PushClient;
  /** How records the server changed since the local edit are settled. @default 'merge' */
  conflict?: ConflictStrategy | undefined;
  /** Local clock (conflict times). @default Date.now */
  now?: (() => number) | undefined;
  /** Bounds of one POST. @default { maxRecords: 100, maxBytes: 524288 } */
  batch?: Partial<BatchLimits> | undefined;
  /**
   * Awaited right before each POST of a push (every batch, and every smaller request a refused
   * batch is sent again as), with the push's signal and the collection. Throwing stops the push
   * as an abort does: what the server acknowledged stays settled, the entries not POSTed stay in
   * the outbox untouched (no attempt counted), and `push` rejects with the thrown error. For
   * fencing: `createMirror` passes its leadership check, so a tab that lost the lead mid-push
   * (another leader took over between two batches) stops before its next POST.
   */
  beforeBatch?: BeforeBatch | undefined;
}

/** Options of one {@link Pusher.push}. */
export interface PushOptions {
  /** Aborts the push: what was acknowledged stays settled, the rest stays in the outbox. */
  signal?: AbortSignal | undefined;
  /** Collections to push. @default every collection with pending entries */
  collections?: readonly CollectionName[] | undefined;
}

/** Pushes the outbox to the service (docs/design.md, decisions 6 and 7). */
export interface Pusher {
  /**
   * Pushes every pending entry of the given collections, parents before children, each
   * collection as JSON-array POSTs in the order the edits were made. A record that references a
   * parent the server does not have yet (its create still in the outbox: refused, in conflict,
   * or in a collection not pushed) is held back, pending, and counted in `awaitingParent`.
   * Records the server refuses (400 or 422; 413 for a record sent alone: "too large for the
   * service") are marked `rejected` with its reason, and the others go on.
   * Resolves with what it did; rejects with the error that stopped it (429, 5xx, other 4xx,
   * network and timeout errors after the client's own retries, `AuthError`, an abort), the unsent
   * entries staying in the outbox.
   *
   * Run it after a delta pull of the same collections, so that the entries know the latest
   * server state: that is what conflicts are detected against.
   */
  push(options?: PushOptions): Promise<PushReport>;
}

/**
 * Creates a {@link Pusher}. Options are checked here, once: bad ones are a `ValidationError`
 * naming each.
 */
export function createPusher(options: PusherOptions): Pusher {
  const { db, client, beforeBatch } = options;
  const { conflict: strategy, batch: limits } = resolvePusherOptions(options);
  const now = options.now ?? Date.now;
  const sender = createBatchSender(db, client, beforeBatch);

  async function push(opts: PushOptions = {}): Promise<PushReport> {
    const report = emptyPushReport();
    for (const collection of pushOrder(opts.collections)) {
      opts.signal?.throwIfAborted();
      const counts = emptyCounts();
      try {
        await pushCollection(collection, counts, report.moved, opts.signal);
      } finally {
        if (hasWork(counts)) addCounts(report, collection, counts);
      }
    }
    return report;
  }

  /** Prepares a collection; creates that meet another record under their id are moved to fresh ids first (and noted in `moved`). */
  async function prepare(collection: CollectionName, counts: PushCounts, moved: MovedCreate[]): Promise<OutgoingRecord[]> {
    const prepared = await prepareCollection(db, collection, strategy, now, counts);
    if (prepared.collisions.length === 0) return prepared.out;
    const moves = await moveCollidingCreates(db, collection, prepared.collisions, now());
    counts.moved += moves.length;
    moved.push(...moves);
    // One that still collides (an edit came in between) becomes a conflict row, never an overwrite.
    return (await prepareCollection(db, collection, strategy, now, counts, 'conflict')).out;
  }

  async function pushCollection(collection: CollectionName, counts: PushCounts, moved: MovedCreate[], signal: AbortSignal | undefined): Promise<void> {
    const outgoing = await prepare(collection, counts, moved);
    if (outgoing.length === 0) return;
    const batches = planBatches(outgoing, limits, (o) => jsonBytes(o.wire));
    counts.batches += batches.length;
    // Write-ahead: what each POST carries is stored before any goes out, one row per batch, so a
    // POST that landed is recognised even when this process dies before its answer is handled.
    const inflight = await writeInflight(db._sync_inflight, collection, batches.map((batch) => batch.map(inflightEntryOf)));
    const settled = settlementQueue(db, collection);
    let unsent = 0; // the first batch not POSTed yet
    try {
      for (const [i, batch] of batches.entries()) {
        await sender.beforePost(collection, signal);
        unsent = i + 1;
        await sender.send({ collection, counts, signal, settled, inflight: inflight[i]! }, batch);
      }
    } catch (error) {
      // What the server acknowledged is settled before the push stops; batches never sent leave no snapshot.
      await settled.drain().catch(() => undefined);
      await dropInflight(db._sync_inflight, inflight.slice(unsent)).catch(() => undefined);
      throw error;
    }
    await settled.drain();
  }

  return { push };
}

function hasWork(counts: PushCounts): boolean {
  return counts.requests + counts.acknowledged + counts.conflicts + counts.rejected + counts.awaitingParent + counts.moved > 0;
}

/** The options `createPusher` checks; `db`, `client` and `now` are the caller's own. */
const pusherOptionsSchema = z.object({
  conflict: conflictOption,
  batch: batchOption,
  beforeBatch: fnOption<BeforeBatch>().optional(),
});

function resolvePusherOptions(options: PusherOptions): { conflict: ConflictStrategy; batch: BatchLimits } {
  return parseOptionsOrThrow(pusherOptionsSchema, options, { factory: 'createPusher', heading: 'bad options' });
}
