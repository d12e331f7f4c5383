import { formatIssues, kindOf, ValidationError } from '../errors/index.js';
import { tryToId } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';

/** One record of a POST body, as the caller gives it (wire field names). */
export type SaveRecord = Record<string, unknown>;

/**
 * Checks a POST body for `collection` and returns what goes on the wire: one record object or a
 * non-empty array of them, each with `_t` equal to the table name (spec: Endpoints, rule 2).
 * A missing `_t` is filled in on a copy; a different one is a `ValidationError` naming the record.
 */
export function prepareSaveBody(collection: CollectionName, body: unknown, where: string): SaveRecord | SaveRecord[] {
  const many = Array.isArray(body);
  const records: unknown[] = many ? body : [body];
  if (many && records.length === 0) {
    throw new ValidationError(`${where}: empty batch, nothing to save`, { issues: [{ path: [], message: 'expected at least one record' }] });
  }
  const issues: { path: (string | number)[]; message: string }[] = [];
  const prepared = records.map((record, index) => {
    const at = many ? [index] : [];
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      issues.push({ path: at, message: `expected a record object, got ${kindOf(record)}` });
      return {};
    }
    const fields = record as SaveRecord;
    if (fields._t === undefined) return { ...fields, _t: collection };
    if (fields._t !== collection) issues.push({ path: [...at, '_t'], message: `must be ${JSON.stringify(collection)}, got ${JSON.stringify(fields._t)}` });
    return fields;
  });
  if (issues.length > 0) {
    throw new ValidationError(`${where}: invalid body: ${formatIssues(issues, { whole: '(body)' })}`, { issues });
  }
  return many ? prepared : (prepared[0] as SaveRecord);
}

/**
 * True when sending the body twice updates the same records instead of creating new ones: every
 * record carries its own non-zero id (spec: a POST with id 0 or without id creates a record).
 */
export function isIdempotentBody(body: SaveRecord | SaveRecord[]): boolean {
  const records = Array.isArray(body) ? body : [body];
  return records.every((record) => {
    const id = tryToId(record.id);
    return id !== undefined && id !== '0';
  });
}
