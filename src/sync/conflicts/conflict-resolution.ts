import type { MirrorDb } from '../../db/mirror-db.js';
import type { ConflictRow, OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import { describeValue, ValidationError } from '../../errors/index.js';
import { isCollectionName, type CollectionName } from '../../schema/collections.js';
import { validateWrite } from '../../schema/index.js';
import { appView } from './conflict-check.js';
import { withoutSent } from '../outbox/outbox-sent.js';
import { childReferences } from '../records/relations.js';
import { diffFields, isMetaField, overlay, sameValue } from '../records/fields.js';
import { deletionFields } from '../records/tombstone.js';
import { inTransaction } from '../../db/in-transaction.js';
import { outboxOf } from '../../db/outbox-of.js';

/** How the app settles a conflict: its own values, the server's, or the record to keep. */
export type ConflictChoice = 'local' | 'server' | object;

/**
 * Settles an unresolved conflict (`key` = `${collection}:${id}`), in one transaction that also
 * removes its conflict row:
 * - `'local'`: the app's values win. The entry becomes pending again with `base` = the server
 *   state it was compared against, so it pushes without conflicting again (unless the server
 *   changed the record once more since).
 * - `'server'`: the server's values of the conflicting fields win (for a deletion conflict, the
 *   server's record as a whole). Local changes to other fields still go out; when none remain,
 *   the entry leaves the outbox and the table shows the server's record.
 * - an object: the record to keep, laid on the local copy and validated like a save (a bad one
 *   is a `ValidationError` and changes nothing). The fields that differ from the server's go out.
 *
 * A conflict of a local create (its row's `base` is `null`: the server holds another record with
 * the same id, made elsewhere; a create whose id this mirror generated and no POST carried is moved
 * to a fresh id by the push instead, see `isIdCollision`) is about whole records: `'server'` keeps
 * the server's record and drops the local create entirely (nothing of it goes out; save its values
 * again without an id first to keep them as a new record). Pending edits of records that point at
 * it (its order items) are marked rejected, not sent: point them at the right parent and
 * `retryRejected`. `'local'` writes every field the app set over the server's record; a record
 * replaces those fields with its own.
 */
export async function resolveConflict(db: MirrorDb, key: string, choice: ConflictChoice): Promise<void> {
  const collection = collectionOfKey(key);
  // Callers from plain JavaScript can pass anything.
  const given: unknown = choice;
  if (given !== 'local' && given !== 'server' && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new ValidationError(`resolveConflict ${key}: the choice must be 'local', 'server' or a record`, {
      issues: [{ path: ['choice'], message: `expected 'local', 'server' or an object, got ${describeValue(choice)}` }],
    });
  }
  const children = childReferences(collection);
  const childTables = children.map(([child]) => db.collection(child));
  await inTransaction(db, 'rw', [db.collection(collection), db._sync_outbox, db._sync_conflicts, ...childTables], async (db) => {
    const table = db.collection(collection);
    const row = await db._sync_conflicts.get(key);
    if (!row) {
      throw new ValidationError(`resolveConflict: no unresolved conflict ${key}`, { issues: [{ path: ['key'], message: 'no such conflict' }] });
    }
    await db._sync_conflicts.delete(key);
    const entry = await db._sync_outbox.where('[collection+id]').equals([collection, row.id]).first();
    const local = await table.get(row.id);
    if (!entry || entry.seq === undefined || !local || !row.server) {
      if (entry?.seq !== undefined && entry.state === 'conflict') await db._sync_outbox.put({ ...entry, state: 'pending' });
      return;
    }
    const server = row.server;
    // A server state newer than the one compared against stays on the entry: the next push
    // checks the outcome against it.
    const latest = entry.server && entry.server._v > server._v ? entry.server : server;
    const settle = async (record: StoredRecord, changed: string[]) => {
      if (changed.length === 0) {
        await db._sync_outbox.delete(entry.seq!);
        await table.put(latest);
        return;
      }
      await table.put(record);
      const next: OutboxEntry = {
        ...withoutSent(entry),
        base: server,
        server: latest === server ? null : latest,
        changed,
        state: 'pending',
        op: entry.op === 'create' ? 'update' : entry.op,
      };
      delete next.reason;
      await db._sync_outbox.put(next);
    };

    const deletion = row.fields.includes('_d');
    if (choice === 'local') {
      const mine = deletion ? { ...appView(entry, local, server), _v: local._v } : local;
      const fields = [...new Set([...entry.changed, ...(deletion ? deletionFields(collection) : [])])];
      return settle(mine, fields.filter((f) => !sameValue(mine[f], server[f])).sort());
    }
    if (choice === 'server') {
      // A deletion conflict, or a create against another record with its id: the server's record as a whole.
      if (row.base === null) await rejectChildrenOfDroppedCreate(db, collection, row.id, children);
      if (deletion || row.base === null) return settle(server, []);
      const record = overlay(local, server, row.fields);
      const remaining = entry.changed.filter((f) => !row.fields.includes(f) && !sameValue(record[f], server[f]));
      return settle(record, remaining);
    }
    const merged = { ...local, ...(choice as Record<string, unknown>), id: row.id, _v: undefined };
    const validated = validateWrite(collection, merged, {}) as Record<string, unknown>;
    const record: StoredRecord = { ...validated, id: row.id, _v: local._v };
    for (const field of Object.keys(local)) if (isMetaField(field) && field !== '_v' && !(field in record)) record[field] = local[field];
    return settle(record, diffFields(record, server));
  });
}

/**
 * The local create of `id` is dropped in favour of the server's record that has its id: the
 * edits that point at it (an order's items) were made for the dropped record, not for the other
 * one. Sending them would attach them to a record made elsewhere, so they are marked rejected,
 * with a reason that says what to do. The push held them back until now (`awaitingParent`).
 */
async function rejectChildrenOfDroppedCreate(
  db: MirrorDb,
  collection: CollectionName,
  id: string,
  children: ReturnType<typeof childReferences>,
): Promise<void> {
  const reason =
    `its parent, the local create of ${collection} ${id}, was dropped: the server holds another record with that id ` +
    '(resolveConflict chose the server). Point it at the right parent and retry it (retryRejected).';
  for (const [child, fields] of children) {
    const entries = await outboxOf(db._sync_outbox, child).toArray();
    const open = entries.filter((e) => e.state !== 'rejected');
    if (open.length === 0) continue;
    const records = await db.collection(child).bulkGet(open.map((e) => e.id));
    const rejected = open.filter((_, i) => fields.some((field) => records[i]?.[field] === id)).map((e) => ({ ...e, state: 'rejected' as const, reason }));
    if (rejected.length > 0) await db._sync_outbox.bulkPut(rejected);
  }
}

/** Unresolved conflicts, oldest first. */
export async function listConflicts(db: MirrorDb): Promise<ConflictRow[]> {
  return db._sync_conflicts.orderBy('at').toArray();
}

function collectionOfKey(key: unknown): CollectionName {
  const collection = typeof key === 'string' ? key.slice(0, Math.max(0, key.lastIndexOf(':'))) : '';
  if (!isCollectionName(collection)) {
    throw new ValidationError(`resolveConflict: not a conflict key: ${describeValue(key)}`, {
      issues: [{ path: ['key'], message: 'expected `${collection}:${id}`' }],
    });
  }
  return collection;
}

