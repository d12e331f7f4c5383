import type { OutboxEntry, StoredRecord } from '../db/sync-rows.js';

/**
 * What the last push of an entry sent when nobody knows whether the server applied it (the
 * connection dropped, the answer was cut off, the server failed after the request). The next
 * push compares it with the server state: if the server holds these values, that push landed,
 * and the changes made since are all that is left; the app's own write is never mistaken for
 * a concurrent edit by someone else.
 */
export interface SentSnapshot {
  /** The record as sent (wire fields). */
  record: StoredRecord;
  /** The entry's changed fields when it was sent. */
  fields: string[];
}

/** An outbox entry as stored, with the optional {@link SentSnapshot} the push keeps on it. */
export type OutboxRow = OutboxEntry & { sent?: SentSnapshot | undefined };

/** The entry's snapshot of an unanswered push, if it has one. */
export function readSent(entry: OutboxEntry): SentSnapshot | undefined {
  const sent = (entry as OutboxRow).sent;
  return sent && typeof sent === 'object' && Array.isArray(sent.fields) ? sent : undefined;
}

/** The entry with a snapshot of what was just sent for it: the record, and the changed fields it carried. */
export function withSent(entry: OutboxEntry, record: StoredRecord, fields: readonly string[]): OutboxRow {
  return { ...entry, sent: { record, fields: [...fields] } };
}

/** The entry without a snapshot (the push it describes is settled). */
export function withoutSent(entry: OutboxEntry): OutboxEntry {
  if (!('sent' in entry)) return entry;
  const { sent: _sent, ...rest } = entry as OutboxRow;
  return rest;
}
