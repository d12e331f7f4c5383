/**
 * The push (docs/design.md, decision 6): each collection's pending entries are prepared against
 * the server state (`prepare.ts`), cut into batches bounded by count and bytes (`batches.ts`),
 * written ahead as in-flight rows (`db/inflight.ts`), POSTed and answered (`send-batch.ts`,
 * `rejections.ts`), and settled once acknowledged (`acknowledge.ts`). A create that meets another
 * record under its id is moved to a fresh id before anything is sent (`id-collisions.ts`).
 * `push.ts` runs it, parents before children; `push-report.ts` counts what it did.
 */
export { BATCH_DEFAULTS, jsonBytes, planBatches, type BatchLimits } from './batches.js';
export { batchOption, conflictOption, DEFAULT_CONFLICT } from './push-options.js';
export {
  createPusher,
  type ConflictOption,
  type PushClient,
  type Pusher,
  type PusherOptions,
  type PushOptions,
} from './push.js';
export type { PushCounts, PushReport } from './push-report.js';
export { readMovedCreates } from './id-collisions.js';
