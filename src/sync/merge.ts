import type { StoredRecord } from '../db/sync-rows.js';
import { isReadOnlyKey } from '../schema/index.js';

/** The outcome of a three-way merge of one record. */
export interface MergeResult {
  /** The merged record: the server's state with every non-conflicting local change laid on top. */
  record: StoredRecord;
  /** Fields changed on both sides to different values, sorted. Empty when the merge is clean. */
  conflicts: string[];
  /** Local changes the merged record still carries (fields whose merged value differs from the server's). */
  changed: string[];
}

/**
 * Fields that are not data and never take part in a merge: the server's version and internal
 * key, the undescribed `_u_dyn`, the fixed `_t`, the id itself, and every `__` hydration.
 * The merged record takes them from the server.
 */
export function isMetaField(field: string): boolean {
  return field === '_v' || field === 'id' || field === '_t' || isReadOnlyKey(field);
}

/**
 * Three-way merge of one record, field by field over the union of the keys of the three sides
 * (DESIGN.md decision 7):
 * - a field changed on one side only takes that side's value;
 * - a field changed on both sides to equal values is not a conflict;
 * - a field changed on both sides to different values is a conflict, and the merged record
 *   keeps the server's value for it until someone decides;
 * - `date_updated` changed on both sides is not a conflict: it only says when the record was
 *   last touched, so the later time is kept;
 * - a missing key and an `undefined` value are the same thing.
 *
 * `base` is the server state the local edit was made on (`null` for a local create: every
 * field the two sides both carry then counts as changed on both). When `changed` is given, only
 * those fields count as changed locally; other local values are the server state the local copy
 * was last laid on and give way to the server's.
 */
export function mergeRecords(
  base: StoredRecord | null,
  local: StoredRecord,
  server: StoredRecord,
  changed?: readonly string[],
): MergeResult {
  const record: StoredRecord = { ...server };
  const conflicts: string[] = [];
  const localChanged = changed ? new Set(changed) : undefined;
  const fields = new Set([...Object.keys(base ?? {}), ...Object.keys(local), ...Object.keys(server)]);

  for (const field of fields) {
    if (isMetaField(field)) continue;
    if (localChanged && !localChanged.has(field)) continue;
    const b = base?.[field];
    const l = local[field];
    const s = server[field];
    if (sameValue(l, s) || sameValue(l, b)) continue; // server's value already in place
    if (sameValue(s, b)) {
      setField(record, field, l);
      continue;
    }
    if (field === 'date_updated' && typeof l === 'number' && typeof s === 'number') {
      record[field] = Math.max(l, s);
      continue;
    }
    conflicts.push(field);
  }
  conflicts.sort();
  return { record, conflicts, changed: diffFields(record, server) };
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
