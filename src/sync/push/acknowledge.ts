import type { MirrorDb } from '../../db/mirror-db.js';
import type { OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import { sentRecordOf, withSent, withoutSent } from '../outbox/outbox-sent.js';
import { settleInflight, type InflightBatch } from '../../db/inflight.js';
import type { OutgoingRecord } from './prepare.js';
import { sameValue } from '../records/fields.js';
import { isTombstone } from '../records/tombstone.js';
import { inTransaction } from '../../db/in-transaction.js';

/**
 * Settles the entries of a POST the server acknowledged, in one transaction: the only place an
 * entry leaves the outbox (docs/design.md, decision 6). An entry that moved while the POST was in
 * flight stays, rebased on what was sent (`base` = the sent record, `sent` dropped): edited again,
 * `changed` keeps the fields that differ from what was sent; with a server state noted meanwhile
 * (`entry.server`), that state is kept for the next push to merge against, as nobody knows whether
 * it is older than the write just made. The table's record is left as it is (it shows what was
 * sent); the items leave their batch's in-flight row in the same transaction.
 */
export async function acknowledgeSent(db: MirrorDb, collection: CollectionName, items: readonly OutgoingRecord[], inflight?: InflightBatch): Promise<void> {
  await inTransaction(db, 'rw', [db.collection(collection), db._sync_outbox, db._sync_inflight], async (db) => {
    const table = db.collection(collection);
    const currents = await readSeqs(db, items.map((i) => i.entry.seq));
    const deletes: number[] = [];
    const moved: { item: OutgoingRecord; current: OutboxEntry; serverMoved: boolean }[] = [];
    items.forEach((item) => {
      const current = currents.get(item.entry.seq);
      if (!current) return;
      const edited = current.localVersion !== item.entry.localVersion;
      const serverMoved = (current.server?._v ?? -1) !== (item.entry.server?._v ?? -1);
      if (edited || serverMoved) moved.push({ item, current, serverMoved });
      else deletes.push(item.entry.seq);
    });
    const puts: OutboxEntry[] = [];
    if (moved.length > 0) {
      const locals = await table.bulkGet(moved.map((m) => m.item.entry.id));
      moved.forEach(({ item, current, serverMoved }, i) => {
        const local = locals[i] ?? item.record;
        const sentBase = sentRecord(item);
        const changed = current.changed.filter((f) => !sameValue(local[f], sentBase[f]));
        if (changed.length === 0 && !serverMoved) {
          deletes.push(item.entry.seq);
          return;
        }
        const deleted = isTombstone(collection, local) && !isTombstone(collection, sentBase);
        puts.push({ ...withoutSent(current), base: sentBase, changed, op: deleted ? 'delete' : 'update' });
      });
    }
    await deleteSeqs(db, deletes);
    if (puts.length > 0) await db._sync_outbox.bulkPut(puts);
    await settleInflight(db._sync_inflight, inflight, items.map((i) => i.entry.seq));
  });
}

/**
 * Outbox entries by `seq`. A batch is usually one run of consecutive `seq`s (entries go out in
 * `seq` order), read with one key-range request instead of one request per entry.
 */
async function readSeqs(db: MirrorDb, seqs: readonly number[]): Promise<Map<number, OutboxEntry>> {
  const found = new Map<number, OutboxEntry>();
  const { runs, singles } = splitRuns(seqs);
  for (const [first, last] of runs) {
    for (const entry of await db._sync_outbox.where(':id').between(first, last, true, true).toArray()) found.set(entry.seq!, entry);
  }
  const loose = await db._sync_outbox.bulkGet(singles);
  loose.forEach((entry, i) => entry && found.set(singles[i]!, entry));
  return found;
}

/** Deletes outbox entries by `seq`: runs of consecutive `seq`s as one key-range request each. */
async function deleteSeqs(db: MirrorDb, seqs: readonly number[]): Promise<void> {
  const { runs, singles } = splitRuns(seqs);
  for (const [first, last] of runs) await db._sync_outbox.where(':id').between(first, last, true, true).delete();
  if (singles.length > 0) await db._sync_outbox.bulkDelete(singles);
}

/** Runs of at least 3 consecutive numbers, and the numbers in no such run. */
function splitRuns(values: readonly number[]): { runs: [number, number][]; singles: number[] } {
  const sorted = [...values].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  const singles: number[] = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && sorted[i] === sorted[i - 1]! + 1) continue;
    if (i - start >= 3) runs.push([sorted[start]!, sorted[i - 1]!]);
    else singles.push(...sorted.slice(start, i));
    start = i;
  }
  return { runs, singles };
}

/**
 * Marks refused records `rejected` with the server's reason, in one transaction. A record the
 * app edited while the POST was in flight stays pending instead: the edit may be the fix. The
 * items leave their batch's in-flight row (`inflight`): the server applied none of them. An
 * entry's `sent` snapshot stays: it describes an earlier POST whose answer was lost, which may
 * have landed (the refused one applied nothing), and is the only evidence that a create's id on
 * the server is its own.
 */
export async function markRejected(db: MirrorDb, items: readonly OutgoingRecord[], reasons: readonly string[], inflight?: InflightBatch): Promise<void> {
  await updateEntries(db, items, inflight, (current, item, i) => {
    const attempts = current.attempts + 1;
    if (current.localVersion !== item.entry.localVersion) return { ...current, attempts };
    return { ...current, state: 'rejected', reason: reasons[i] ?? 'refused by the server', attempts };
  });
}

/**
 * Notes a POST whose outcome is unknown (dropped connection, cut-off or failed answer, abort):
 * each entry gets the snapshot of what was sent (moved out of the batch's in-flight row
 * `inflight`, in the same transaction), so the next push can tell whether it landed (see
 * `SentSnapshot`), and counts a failed attempt unless `countAttempt` is false.
 */
export async function noteUnanswered(db: MirrorDb, items: readonly OutgoingRecord[], countAttempt: boolean, inflight?: InflightBatch): Promise<void> {
  await updateEntries(db, items, inflight, (current, item) => {
    const sent = withSent(current, sentRecord(item), item.entry.changed);
    return countAttempt ? { ...sent, attempts: current.attempts + 1 } : sent;
  });
}

/** What was sent for an item, as a record: the POST element with the `_v` of the state it was built on (0 for a create). */
function sentRecord(item: OutgoingRecord): StoredRecord {
  return sentRecordOf(item.wire, item.entry.base);
}

/**
 * Rewrites the current outbox rows of `items` (read again inside the transaction: the app may
 * have edited them while the POST was in flight) with `update`; rows gone meanwhile are skipped.
 * The items leave their batch's in-flight row in the same transaction.
 */
async function updateEntries(
  db: MirrorDb,
  items: readonly OutgoingRecord[],
  inflight: InflightBatch | undefined,
  update: (current: OutboxEntry, item: OutgoingRecord, index: number) => OutboxEntry,
): Promise<void> {
  await inTransaction(db, 'rw', [db._sync_outbox, db._sync_inflight], async (db) => {
    const currents = await db._sync_outbox.bulkGet(items.map((i) => i.entry.seq));
    const puts: OutboxEntry[] = [];
    items.forEach((item, i) => {
      const current = currents[i];
      if (current) puts.push(update(current, item, i));
    });
    if (puts.length > 0) await db._sync_outbox.bulkPut(puts);
    await settleInflight(db._sync_inflight, inflight, items.map((i) => i.entry.seq));
  });
}
