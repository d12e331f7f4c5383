import type { Id } from '../../ids/id.js';
import type { StoredRecord } from '../../db/sync-rows.js';
import { isReadOnlyKey } from '../../schema/index.js';

/**
 * A record as it goes out in a POST body: wire field names, ids still canonical strings (the
 * client's `stringifyJson` writes them as bare JSON integers), no `_v`, `pgx`, `_u_dyn` or
 * hydrations.
 */
export type WireRecord = { id: Id; [field: string]: unknown };

/**
 * True for fields a POST never carries (docs/design.md, decision 8):
 * - `pgx` is the service's internal key and "must be ignored";
 * - `_u_dyn` is read-only;
 * - `_v` defaults to the current time on the server: sending an old one risks the server
 *   keeping it, which would hide the edit from every other client's delta pull;
 * - `__*` hydrations are split into their own tables and never written back.
 */
export function isStrippedField(field: string): boolean {
  return field === '_v' || isReadOnlyKey(field);
}

/** The record without the fields a POST never carries; everything else, unknown fields included, is kept. */
export function stripForWire(record: StoredRecord): WireRecord {
  const out: WireRecord = { id: record.id };
  for (const [field, value] of Object.entries(record)) {
    if (!isStrippedField(field) && value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * What a push sends for one record: the latest server state (`server`, or nothing for a record
 * that the server has never had) with the app's changed fields laid on top, stripped for the
 * wire. The full record goes out because a POST may be a full upsert: a field left out could be
 * reset to its default. A changed field absent from the local record is left out.
 */
export function buildWireRecord(server: StoredRecord | null, local: StoredRecord, changed: readonly string[]): WireRecord {
  if (!server) return stripForWire(local);
  const merged: StoredRecord = { ...server, id: local.id };
  for (const field of changed) {
    if (field in local && local[field] !== undefined) merged[field] = local[field];
    else delete merged[field];
  }
  if (local._t !== undefined) merged._t = local._t;
  return stripForWire(merged);
}
