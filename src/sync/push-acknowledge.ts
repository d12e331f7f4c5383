import type { MirrorDb } from '../db/mirror-db.js';
import type { OutboxEntry, StoredRecord } from '../db/sync-rows.js';
import type { CollectionName } from '../schema/collections.js';
import { isTombstone } from './conflict-strategy.js';
import { sameValue } from './merge.js';
import { withSent, withoutSent } from './outbox-sent.js';
import type { OutgoingRecord } from './push-prepare.js';

/**
 * Settles the entries of a POST the server acknowledged, in one transaction. An entry leaves
 * the outbox only here (DESIGN.md decision 6), and only when nothing moved while the POST was
 * in flight. When something did, the entry stays, rebased on what was sent:
 * - the app edited the record again (`localVersion` moved): `changed` becomes the fields whose
 *   values differ from what was sent, and those go out with the next push;
 * - a server state arrived meanwhile (a webhook, a latest-orders poll noted on `entry.server`):
 *   nobody knows whether it is older or newer than the write just made, so the next push
 *   compares it with what was sent before settling.
 * The table keeps its record: it already shows what was sent (and any later edit); the next
 * pull brings the server's version of it with its new `_v`.
 */
export async function acknowledgeSent(db: MirrorDb, collection: CollectionName, items: readonly OutgoingRecord[]): Promise<void> {
  const table = db.collection(collection);
  await db.transaction('rw', [table, db._sync_outbox], async () => {
    const currents = await db._sync_outbox.bulkGet(items.map((i) => i.entry.seq));
    const locals = await table.bulkGet(items.map((i) => i.entry.id));
    const deletes: number[] = [];
    const puts: OutboxEntry[] = [];
    items.forEach((item, i) => {
      const current = currents[i];
      if (!current) return;
      const edited = current.localVersion !== item.entry.localVersion;
      const serverMoved = (current.server?._v ?? -1) !== (item.entry.server?._v ?? -1);
      if (!edited && !serverMoved) {
        deletes.push(item.entry.seq);
        return;
      }
      const local = locals[i] ?? item.record;
      const sentBase: StoredRecord = { ...item.wire, _v: item.entry.base?._v ?? 0 };
      const changed = current.changed.filter((f) => !sameValue(local[f], sentBase[f]));
      if (changed.length === 0 && !serverMoved) {
        deletes.push(item.entry.seq);
        return;
      }
      const deleted = isTombstone(collection, local) && !isTombstone(collection, sentBase);
      puts.push({ ...withoutSent(current), base: sentBase, changed, op: deleted ? 'delete' : 'update' });
    });
    if (deletes.length > 0) await db._sync_outbox.bulkDelete(deletes);
    if (puts.length > 0) await db._sync_outbox.bulkPut(puts);
  });
}

/**
 * Marks refused records `rejected` with the server's reason, in one transaction. A record the
 * app edited while the POST was in flight stays pending instead: the edit may be the fix.
 */
export async function markRejected(db: MirrorDb, items: readonly OutgoingRecord[], reasons: readonly string[]): Promise<void> {
  await db.transaction('rw', db._sync_outbox, async () => {
    const currents = await db._sync_outbox.bulkGet(items.map((i) => i.entry.seq));
    const puts: OutboxEntry[] = [];
    items.forEach((item, i) => {
      const current = currents[i];
      if (!current) return;
      const attempts = current.attempts + 1;
      if (current.localVersion !== item.entry.localVersion) puts.push({ ...current, attempts });
      else puts.push({ ...withoutSent(current), state: 'rejected', reason: reasons[i] ?? 'refused by the server', attempts });
    });
    if (puts.length > 0) await db._sync_outbox.bulkPut(puts);
  });
}

/**
 * Notes a POST whose outcome is unknown (dropped connection, cut-off or failed answer, abort):
 * each entry keeps a snapshot of what was sent, so the next push can tell whether it landed
 * (see `SentSnapshot`), and counts a failed attempt unless `countAttempt` is false.
 */
export async function noteUnanswered(db: MirrorDb, items: readonly OutgoingRecord[], countAttempt: boolean): Promise<void> {
  await db.transaction('rw', db._sync_outbox, async () => {
    const currents = await db._sync_outbox.bulkGet(items.map((i) => i.entry.seq));
    const puts: OutboxEntry[] = [];
    items.forEach((item, i) => {
      const current = currents[i];
      if (!current) return;
      const sent: StoredRecord = { ...item.wire, _v: item.entry.base?._v ?? 0 };
      puts.push({ ...withSent(current, sent, item.entry.changed), attempts: current.attempts + (countAttempt ? 1 : 0) });
    });
    if (puts.length > 0) await db._sync_outbox.bulkPut(puts);
  });
}
