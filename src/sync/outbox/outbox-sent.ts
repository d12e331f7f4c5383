import type { OutboxEntry, SentSnapshot, StoredRecord } from '../../db/sync-rows.js';
import type { WireRecord } from '../records/wire-record.js';

/** The entry's snapshot of what its last push sent (see `SentSnapshot`), if it has one. */
export function readSent(entry: OutboxEntry): SentSnapshot | undefined {
  const sent = entry.sent;
  return sent && typeof sent === 'object' && Array.isArray(sent.fields) ? sent : undefined;
}

/**
 * What a POST element says as a record: the element with the `_v` of the server state it was
 * built on (0 for a create), the form a `SentSnapshot` keeps it in.
 */
export function sentRecordOf(wire: WireRecord, base: StoredRecord | null): StoredRecord {
  return { ...wire, _v: base?._v ?? 0 };
}

/** The entry with a snapshot of what is sent for it: the record, and the changed fields it carries. */
export function withSent<E extends OutboxEntry>(entry: E, record: StoredRecord, fields: readonly string[]): E {
  return { ...entry, sent: { record, fields: [...fields] } };
}

/** The entry without a snapshot (the push it describes is settled). */
export function withoutSent<E extends OutboxEntry>(entry: E): Omit<E, 'sent'> {
  if (!('sent' in entry)) return entry;
  const { sent: _sent, ...rest } = entry;
  return rest;
}
