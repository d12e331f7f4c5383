import type { ValidationIssue } from '../errors/index.js';
import { describeIssue, toValidationIssues } from './issues.js';
import { readRecordLoosely } from './loose-rules.js';
import { isSchemaName, schemas, type SchemaName } from './schemas.js';
import type { RecordTypes } from './types.js';

/** Result of {@link parseRecord}: the record, or every reason it cannot be used. */
export type ParseRecordResult<T> = { ok: true; record: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses one record the server sent with the read face of `collection`: ids canonical,
 * `_d`/`_t` filled, unknown fields kept, hydrations parsed, and the values a loosely typed
 * backend writes (numbers as strings, booleans as 0/1, `""` for a nullable number) read as the
 * documented types where that is lossless (see `loose-values.ts`). Never throws for bad data; the
 * caller (sync) quarantines a record that is not ok, with the issues as its reason.
 */
export function parseRecord<C extends SchemaName>(collection: C, raw: unknown): ParseRecordResult<RecordTypes[C]> {
  if (!isSchemaName(collection)) {
    return { ok: false, issues: [{ path: [], message: `unknown collection ${JSON.stringify(collection)}` }] };
  }
  const schema = schemas[collection].read;
  // Parsing without params keeps zod on its fast path; only a failure is parsed again.
  let result = schema.safeParse(raw);
  if (result.success) return { ok: true, record: result.data as RecordTypes[C] };
  // A loosely typed backend's record (numbers as strings, booleans as 0/1) is read again, its
  // values made the documented types where that is lossless: the well-typed case pays nothing.
  const loose = readRecordLoosely(collection, raw);
  if (loose !== raw) {
    result = schema.safeParse(loose);
    if (result.success) return { ok: true, record: result.data as RecordTypes[C] };
  }
  const worded = schema.safeParse(loose, { error: describeIssue });
  return { ok: false, issues: toValidationIssues((worded.error ?? result.error).issues) };
}
