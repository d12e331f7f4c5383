import type { MirrorDb } from '../db/mirror-db.js';
import { conflictKey } from '../db/conflict-key.js';
import { inTransaction } from '../db/in-transaction.js';
import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';

/**
 * Where one record stands between this device and the server, for a badge beside it:
 * - `in-step`: nothing of this device's waits for the server (what the mirror shows is the
 *   server's record as of the last pull);
 * - `pending`: edits made here wait for the next push (`since`: the first of them, local ms);
 * - `sent`: a push sent them and has no answer yet, or lost it (a dropped connection): the next
 *   push finds out whether they landed;
 * - `rejected`: the server refused them (`reason`); `mirror.retryRejected()` puts them back in line;
 * - `conflict`: the server changed the same fields (`fields`); `mirror.resolveConflict()` settles it.
 * `changed` lists the fields this device changed.
 */
export type RecordSyncState =
  | { state: 'in-step' }
  | { state: 'pending' | 'sent'; since: number; changed: string[] }
  | { state: 'rejected'; since: number; changed: string[]; reason: string }
  | { state: 'conflict'; since: number; changed: string[]; fields: string[] };

/** Reads the {@link RecordSyncState} of one record, in one read transaction (inside `mirror.live()` it follows every change). */
export function readRecordSyncState(db: MirrorDb, collection: CollectionName, id: Id): Promise<RecordSyncState> {
  return inTransaction(db, 'r', [db._sync_outbox, db._sync_conflicts, db._sync_inflight], async (db) => {
    const entry = await db._sync_outbox.where('[collection+id]').equals([collection, id]).first();
    if (!entry) return { state: 'in-step' };
    const { createdAt: since, changed } = entry;
    if (entry.state === 'rejected') return { state: 'rejected', since, changed, reason: entry.reason ?? '' };
    if (entry.state === 'conflict') {
      const row = await db._sync_conflicts.get(conflictKey(collection, id));
      return { state: 'conflict', since, changed, fields: row?.fields ?? [] };
    }
    // A POST in flight has its batch's row (the table is empty between pushes); an unknown outcome is on the entry.
    const seq = entry.seq;
    const inFlight = entry.sent !== undefined || (seq !== undefined && (await db._sync_inflight.toArray()).some((row) => row.entries.some((e) => e.seq === seq)));
    return { state: inFlight ? 'sent' : 'pending', since, changed };
  });
}
