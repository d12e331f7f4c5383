import { z } from 'zod';
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
  /**
   * Fields taken as they are, unchecked: the values a server record holds in fields an edit leaves
   * alone. The read face accepts what the write face may not (a `null` in a defaulted field, a
   * missing required key), and an edit of other fields must not fail on the server's data.
   * @default none
   */
  keep?: readonly string[];
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
    throw new ValidationError(`cannot validate a record: ${formatIssues(issues)}`, { issues });
  }
  const { now } = opts;
  if (now !== undefined && !Number.isSafeInteger(now)) {
    const issues = [{ path: ['now'], message: `must be a time in integer ms, got ${String(now)}` }];
    throw new ValidationError(`${collection} record: ${formatIssues(issues)}`, { issues });
  }
  const schema = keeping(schemas[collection].write, opts.keep);
  // Parsing without params keeps zod on its fast path; only a failure is parsed again for wording.
  const result = withWriteTime(now, () => schema.safeParse(input));
  if (result.success) {
    const unsendable = nonJsonFields(result.data as Record<string, unknown>);
    if (unsendable.length === 0) return result.data as WriteRecordTypes[C];
    throw new ValidationError(`${collection} record: ${formatIssues(unsendable, unsendable.length)}`, { issues: unsendable });
  }
  const worded = schema.safeParse(input, { error: describeIssue });
  const issues = toValidationIssues((worded.error ?? result.error).issues);
  throw new ValidationError(`${collection} record: ${formatIssues(issues, issues.length)}`, { issues });
}

/** `schema` with the `keep` fields accepting any value (or none). */
function keeping<S extends z.ZodObject>(schema: S, keep: readonly string[] | undefined): S {
  if (keep === undefined || keep.length === 0) return schema;
  return schema.safeExtend(Object.fromEntries(keep.map((field) => [field, z.unknown().optional()]))) as unknown as S;
}
