import type { MirrorDb } from '../db/mirror-db.js';
import { inTransaction } from '../db/in-transaction.js';
import type { ConflictRow, OutboxEntry, StoredRecord } from '../db/sync-rows.js';
import { diffFields } from '../sync/records/index.js';
import type { Conflict } from './typed-rows.js';

/** The unresolved conflicts, oldest first, as `mirror.conflicts()` hands them out (see {@link withChangedFields}). */
export function listConflictViews(db: MirrorDb): Promise<Conflict[]> {
  return inTransaction(db, 'r', [db._sync_conflicts, db._sync_outbox], async (db) => {
    const rows = await db._sync_conflicts.orderBy('at').toArray();
    const entries = await Promise.all(rows.map((row) => db._sync_outbox.where('[collection+id]').equals([row.collection, row.id]).first()));
    return rows.map((row, i) => withChangedFields(row, entries[i]));
  });
}

/**
 * A conflict row with the fields this device changed (`localChanged`) and those the server changed
 * (`serverChanged`, base against server), for a screen that shows both sides. What this device
 * changed comes from the edit's outbox entry: the local copy may already carry the server's other
 * changes, so comparing it with the base cannot tell "changed here" from "taken from the server".
 * A side with no base (a create that met another record under its id) lists every field it holds.
 */
export function withChangedFields(row: ConflictRow, entry: OutboxEntry | undefined): Conflict {
  const everything = (side: StoredRecord) => diffFields({ id: side.id, _v: side._v }, side);
  const serverChanged = !row.server ? [] : row.base ? diffFields(row.base, row.server) : everything(row.server);
  const localChanged = entry ? [...entry.changed].sort() : !row.local ? [] : row.base ? diffFields(row.base, row.local) : everything(row.local);
  return { ...row, localChanged, serverChanged } as Conflict;
}
