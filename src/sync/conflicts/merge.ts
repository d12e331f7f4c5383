import type { StoredRecord } from '../../db/sync-rows.js';
import { diffFields, isMetaField, sameValue, setField } from '../records/fields.js';

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
 * Three-way merge of one record, field by field over the union of the keys of the three sides
 * (docs/design.md, decision 7):
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
