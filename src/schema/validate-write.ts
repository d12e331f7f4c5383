import { ValidationError, formatIssues } from '../errors/index.js';
import { describeIssue, toValidationIssues } from './issues.js';
import { nonJsonFields } from './json-value.js';
import { isSchemaName, schemas, type SchemaName } from './schemas.js';
import type { WriteRecordTypes } from './types.js';
import { withWriteTime } from './write-clock.js';

/** Options of {@link validateWrite}. */
export interface ValidateWriteOptions {
  /**
   * The time "current time" defaults take (`date_created`, customers' `date_updated`), in ms.
   * @default Date.now()
   */
  now?: number;
}

/**
 * Validates a local edit of `collection` with its write face and returns the record to store
 * and push: every documented default filled, ids canonical, unknown fields kept, `pgx`,
 * `_u_dyn` and `__*` hydrations removed. Throws a {@link ValidationError} listing every bad
 * field, e.g. `customers record: email: invalid e-mail; country_code: must be exactly 2 characters`.
 */
export function validateWrite<C extends SchemaName>(
  collection: C,
  input: unknown,
  opts: ValidateWriteOptions = {},
): WriteRecordTypes[C] {
  if (!isSchemaName(collection)) {
    const issues = [{ path: [], message: `unknown collection ${JSON.stringify(collection)}` }];
    throw new ValidationError(`cannot validate a record: ${formatIssues(issues, { max: 10 })}`, { issues });
  }
  const { now } = opts;
  if (now !== undefined && !Number.isSafeInteger(now)) {
    const issues = [{ path: ['now'], message: `must be a time in integer ms, got ${String(now)}` }];
    throw new ValidationError(`${collection} record: ${formatIssues(issues, { max: 10 })}`, { issues });
  }
  const schema = schemas[collection].write;
  // Parsing without params keeps zod on its fast path; only a failure is parsed again for wording.
  const result = withWriteTime(now, () => schema.safeParse(input));
  if (result.success) {
    const unsendable = nonJsonFields(result.data);
    if (unsendable.length === 0) return result.data as WriteRecordTypes[C];
    throw new ValidationError(`${collection} record: ${formatIssues(unsendable)}`, { issues: unsendable });
  }
  const worded = schema.safeParse(input, { error: describeIssue });
  const issues = toValidationIssues((worded.error ?? result.error).issues);
  throw new ValidationError(`${collection} record: ${formatIssues(issues)}`, { issues });
}
