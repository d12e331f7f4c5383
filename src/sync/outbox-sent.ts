import type { OutboxEntry, SentSnapshot, StoredRecord } from '../db/sync-rows.js';

/** The entry's snapshot of an unanswered push, if it has one. */
export function readSent(entry: OutboxEntry): SentSnapshot | undefined {
  const sent = entry.sent;
  return sent && typeof sent === 'object' && Array.isArray(sent.fields) ? sent : undefined;
}

/** The entry with a snapshot of what was just sent for it: the record, and the changed fields it carried. */
export function withSent(entry: OutboxEntry, record: StoredRecord, fields: readonly string[]): OutboxEntry {
  return { ...entry, sent: { record, fields: [...fields] } };
}

/** The entry without a snapshot (the push it describes is settled). */
export function withoutSent<E extends OutboxEntry>(entry: E): Omit<E, 'sent'> {
  if (!('sent' in entry)) return entry;
  const { sent: _sent, ...rest } = entry;
  return rest;
}
