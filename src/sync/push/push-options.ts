import { z } from 'zod';
import { isConflictStrategy, type ConflictStrategy } from '../conflicts/conflict-strategy.js';
import { BATCH_DEFAULTS } from './batches.js';

/** The conflict strategy of a push when none is given. */
export const DEFAULT_CONFLICT = 'merge' as const satisfies ConflictStrategy;

/** The `conflict` option of `createPusher` and `createMirror`, {@link DEFAULT_CONFLICT} when not given. */
export const conflictOption = z
  .custom<ConflictStrategy>(isConflictStrategy, { error: "must be 'merge', 'server-wins', 'client-wins' or a resolver function" })
  .default(DEFAULT_CONFLICT);

const MAX_RECORDS_MESSAGE = 'must be an integer of at least 1';
// Two bytes: the brackets of the JSON array every POST body is.
const MAX_BYTES_MESSAGE = 'must be an integer of at least 2';

/**
 * The `batch` option of `createPusher` and `createMirror`: the limits of one POST, each one not
 * given (or undefined) taken from `BATCH_DEFAULTS`. Keys beside the two limits are ignored.
 */
export const batchOption = z
  .object(
    {
      maxRecords: z.int({ error: MAX_RECORDS_MESSAGE }).min(1, MAX_RECORDS_MESSAGE).default(BATCH_DEFAULTS.maxRecords),
      maxBytes: z.int({ error: MAX_BYTES_MESSAGE }).min(2, MAX_BYTES_MESSAGE).default(BATCH_DEFAULTS.maxBytes),
    },
    { error: 'must be an object: { maxRecords?, maxBytes? }' },
  )
  .prefault({});
