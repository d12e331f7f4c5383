import type { ValidationIssue } from '../errors/index.js';
import { describeIssue, toValidationIssues } from './issues.js';
import { isSchemaName, schemas, type SchemaName } from './schemas.js';
import type { RecordTypes } from './types.js';

/** Result of {@link parseRecord}: the record, or every reason it cannot be used. */
export type ParseRecordResult<T> = { ok: true; record: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses one record the server sent with the read face of `collection`: ids canonical,
 * `_d`/`_t` filled, unknown fields kept, hydrations parsed. Never throws for bad data; the
 * caller (sync) quarantines a record that is not ok, with the issues as its reason.
 */
export function parseRecord<C extends SchemaName>(collection: C, raw: unknown): ParseRecordResult<RecordTypes[C]> {
  if (!isSchemaName(collection)) {
    return { ok: false, issues: [{ path: [], message: `unknown collection ${JSON.stringify(collection)}` }] };
  }
  const schema = schemas[collection].read;
  // Parsing without params keeps zod on its fast path; only a failure is parsed again for wording.
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, record: result.data as RecordTypes[C] };
  const worded = schema.safeParse(raw, { error: describeIssue });
  return { ok: false, issues: toValidationIssues((worded.error ?? result.error).issues) };
}
