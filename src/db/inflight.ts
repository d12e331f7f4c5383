import type { Table } from 'dexie';
import type { InflightRow, OutboxEntry, SentSnapshot } from './sync-rows.js';

/**
 * Folds in-flight rows left behind (a process that died between a POST and the handling of its
 * answer) into their entries' `sent` snapshots, and deletes them. Run inside a transaction over
 * both tables. Only the rows of `collection` when one is given. Entries gone since are skipped;
 * of two rows naming one entry, the later (higher key) wins. Returns how many rows were folded.
 */
export async function foldInflightRows(
  outbox: Table<OutboxEntry, number>,
  inflight: Table<InflightRow, number>,
  collection?: string,
): Promise<number> {
  // The table is empty between pushes: reading it whole is one cheap request.
  const rows = (await inflight.toArray()).filter((r) => collection === undefined || r.collection === collection);
  if (rows.length === 0) return 0;
  const snapshots = new Map<number, SentSnapshot>();
  for (const row of rows) {
    for (const e of row.entries) snapshots.set(e.seq, { record: { ...e.wire, _v: e.v }, fields: [...e.fields] });
  }
  const seqs = [...snapshots.keys()];
  const entries = await outbox.bulkGet(seqs);
  const puts: OutboxEntry[] = [];
  entries.forEach((entry, i) => {
    if (entry) puts.push({ ...entry, sent: snapshots.get(seqs[i]!) });
  });
  if (puts.length > 0) await outbox.bulkPut(puts);
  await inflight.bulkDelete(rows.map((r) => r.key!));
  return rows.length;
}
