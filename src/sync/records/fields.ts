/** How the engine reads a record's fields: which are data, how two values compare, how a field is set. */
import type { StoredRecord } from '../../db/sync-rows.js';
import { isReadOnlyKey } from '../../schema/index.js';

/**
 * Fields that are not data and never take part in a merge: the server's version and internal
 * key, the undescribed `_u_dyn`, the fixed `_t`, the id itself, and every `__` hydration.
 * The merged record takes them from the server.
 */
export function isMetaField(field: string): boolean {
  return field === '_v' || field === 'id' || field === '_t' || isReadOnlyKey(field);
}

/** Fields (meta fields excluded) whose values differ between two records, sorted. */
export function diffFields(a: StoredRecord, b: StoredRecord): string[] {
  const out: string[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!isMetaField(field) && !sameValue(a[field], b[field])) out.push(field);
  }
  return out.sort();
}

/** Sets a field, or removes it when the value is `undefined` (a key that is absent). */
export function setField(record: StoredRecord, field: string, value: unknown): void {
  if (value === undefined) delete record[field];
  else record[field] = value;
}

/**
 * Structural equality of JSON-like values (what records hold): primitives by `Object.is`
 * except that `0` and `-0` are equal, arrays element by element, plain objects key by key
 * with `undefined` values counted as absent.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const key of keys) if (!sameValue(ao[key], bo[key])) return false;
  return true;
}

/** `onto` with `from`'s values of `fields` laid on top. */
export function overlay(onto: StoredRecord, from: StoredRecord, fields: readonly string[]): StoredRecord {
  const out: StoredRecord = { ...onto };
  for (const field of fields) setField(out, field, from[field]);
  return out;
}
