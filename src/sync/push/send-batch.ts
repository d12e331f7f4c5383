import type { MirrorDb } from '../../db/mirror-db.js';
import { isAuthError } from '../../errors/index.js';
import type { CollectionName } from '../../schema/collections.js';
import { acknowledgeSent, markRejected, noteUnanswered } from './acknowledge.js';
import { jsonBytes } from './batches.js';
import type { InflightBatch } from '../../db/inflight.js';
import type { OutgoingRecord } from './prepare.js';
import type { PushCounts } from './push-report.js';
import type { WireRecord } from '../records/wire-record.js';
import { isRejection, isTooLarge, readRejections, rejectionReason, tooLargeReason } from './rejections.js';

/** The part of the REST client a push uses: one batch POST. `createClient` satisfies it. */
export interface PushClient {
  save(collection: CollectionName, body: WireRecord[], options?: { signal?: AbortSignal; readResponse?: boolean }): Promise<unknown>;
}

/** The hook awaited before each POST (see `PusherOptions.beforeBatch`). */
export type BeforeBatch = (signal: AbortSignal | undefined, collection: CollectionName) => Promise<void> | void;

/** What the POSTs of one planned batch share: where they go, what they count, and how they settle. */
export interface BatchRun {
  collection: CollectionName;
  counts: PushCounts;
  signal: AbortSignal | undefined;
  settled: SettlementQueue;
  /** The batch's write-ahead row. */
  inflight: InflightBatch;
}

/** Settles acknowledged batches one after the other, each while the next POST is on its way. */
export interface SettlementQueue {
  /** Waits for the previous settlement (its failure stops the push here), then starts this one. */
  add(batch: OutgoingRecord[], inflight: InflightBatch): Promise<void>;
  /** Resolves when every settlement is written; rejects with the first failure. */
  drain(): Promise<void>;
}

/** Sends the planned batches of a push, each as one POST, and settles what the answers mean. */
export interface BatchSender {
  /** POSTs `batch` (and, when it is refused, the parts that deserve another try). */
  send(run: BatchRun, batch: OutgoingRecord[]): Promise<void>;
  /** What comes before every POST: the signal checked and `beforeBatch` asked. */
  beforePost(collection: CollectionName, signal: AbortSignal | undefined): Promise<void>;
}

/** Creates a {@link BatchSender} over `client`. */
export function createBatchSender(db: MirrorDb, client: PushClient, beforeBatch: BeforeBatch | undefined): BatchSender {
  /**
   * One POST, and what its answer means. A refused batch (400 or 422) is all-or-nothing on the
   * simulator and unknown elsewhere: the records the body names are rejected and the rest sent
   * again; when the body names none, the batch is halved until each bad record stands alone. A
   * batch refused as too large (413) is halved too, and a record refused so on its own is
   * rejected as too large for the service.
   */
  async function send(run: BatchRun, batch: OutgoingRecord[]): Promise<void> {
    const { collection, counts, signal, settled, inflight } = run;
    counts.requests++;
    try {
      // Only the status matters: an entry is settled by the acknowledgement, never by the answer's body.
      await client.save(collection, batch.map((o) => o.wire), { readResponse: false, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (isTooLarge(error)) {
        if (batch.length === 1) {
          await markRejected(db, batch, [tooLargeReason(error, jsonBytes(batch[0]!.wire))], inflight);
          counts.rejected++;
          return;
        }
        await sendHalves(run, batch);
        return;
      }
      if (!isRejection(error)) {
        // Unknown outcome, or refused before it was applied: the entries stay for the next push.
        const aborted = signal?.aborted === true;
        await noteUnanswered(db, batch, !aborted && !isAuthError(error), inflight).catch(() => undefined);
        throw error;
      }
      if (batch.length === 1) {
        await markRejected(db, batch, [rejectionReason(error)], inflight);
        counts.rejected++;
        return;
      }
      const named = readRejections((error as { body?: unknown }).body, batch.length);
      if (named) {
        // In batch order: the reason of each named record, and the rest to send again.
        const bad: OutgoingRecord[] = [];
        const reasons: string[] = [];
        const rest: OutgoingRecord[] = [];
        batch.forEach((item, i) => {
          const reason = named.get(i);
          if (reason === undefined) rest.push(item);
          else {
            bad.push(item);
            reasons.push(reason);
          }
        });
        await markRejected(db, bad, reasons, inflight);
        counts.rejected += bad.length;
        if (rest.length > 0) await sendAgain(run, rest);
        return;
      }
      await sendHalves(run, batch);
      return;
    }
    counts.pushed += batch.length;
    await settled.add(batch, inflight);
  }

  /** Sends a refused batch again as two halves, in order. */
  async function sendHalves(run: BatchRun, batch: OutgoingRecord[]): Promise<void> {
    const half = Math.ceil(batch.length / 2);
    await sendAgain(run, batch.slice(0, half));
    await sendAgain(run, batch.slice(half));
  }

  /** Sends part of a refused batch again: a POST of its own, so `beforeBatch` is asked first. */
  async function sendAgain(run: BatchRun, batch: OutgoingRecord[]): Promise<void> {
    await beforePost(run.collection, run.signal);
    await send(run, batch);
  }

  async function beforePost(collection: CollectionName, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (!beforeBatch) return;
    await beforeBatch(signal, collection);
    signal?.throwIfAborted();
  }

  return { send, beforePost };
}

/** The settlement queue of one collection's push (see {@link SettlementQueue}). */
export function settlementQueue(db: MirrorDb, collection: CollectionName): SettlementQueue {
  let last: Promise<void> = Promise.resolve();
  return {
    async add(batch, inflight) {
      await last;
      last = acknowledgeSent(db, collection, batch, inflight);
      // Observed later, by the next add or by drain; not an unhandled rejection meanwhile.
      last.catch(() => undefined);
    },
    drain: () => last,
  };
}
