import type { MirrorDb } from '../../db/mirror-db.js';
import { writesTogether } from '../../db/writes-together.js';
import type { OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import { formatIssues, kindOf, ValidationError } from '../../errors/index.js';
import { tryToId, type Id } from '../../ids/id.js';
import { generateId } from '../../ids/index.js';
import { COLLECTIONS, isCollectionName, type CollectionName } from '../../schema/collections.js';
import { COLLECTION_INFO, validateWrite } from '../../schema/index.js';
import { conflictKey } from '../../db/conflict-key.js';
import { foldEdit, type LocalEdit } from './outbox-entry.js';
import { isMetaField, sameValue, setField } from '../records/fields.js';
import { deletionFields, isTombstone } from '../records/tombstone.js';
import { inTransaction } from '../../db/in-transaction.js';

/** Options of {@link saveLocal} and {@link removeLocal}. */
export interface LocalEditOptions {
  /** Time of the edit (ms): stamps defaults such as `date_created`, new ids and the outbox entry. */
  now: number;
  /**
   * Told the id of the record the edit writes (the one given, or the one minted for a create), and
   * whether it creates it, before it is written: a caller whose transaction then fails can still
   * look for the record.
   */
  onId?: (id: Id, create: boolean) => void;
}

/**
 * Saves a local edit (docs/design.md, decision 5): validates it, writes the record to its table and
 * folds the change into the record's outbox entry, in one transaction; nothing is written when
 * validation fails. Returns the record's id.
 *
 * No `id` (or 0) is a create under an id generated from the table id, never one the table holds;
 * a table without a table id refuses it, as the id the service would give could never be learned.
 * An id the mirror holds is an update: `input` is laid on the local copy (a key whose value is
 * `undefined` is not given) and validated as a whole, and only the fields whose values differ
 * count as changed. Any other id is a create under the app's own id. `_v` is never taken from
 * the input. A record in conflict can still be edited: the edit joins its entry.
 */
export async function saveLocal(db: MirrorDb, collection: CollectionName, input: object, options: LocalEditOptions): Promise<Id> {
  assertCollection(collection, 'save');
  // Callers from plain JavaScript can pass anything.
  const value: unknown = input;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(`save ${collection}: the record must be an object`, {
      issues: [{ path: [], message: `expected an object, got ${kindOf(value)}` }],
    });
  }
  const { now } = options;
  const given = definedFields(input as Record<string, unknown>);
  const rawId = given.id;
  const id = rawId === undefined || rawId === null ? '0' : tryToId(rawId);
  // A bad id is reported together with every other bad field.
  if (id === undefined) validateWrite(collection, given, { now });

  return inTransaction(db, 'rw', [db.collection(collection), db._sync_outbox, db._sync_conflicts], async (db) => {
    const table = db.collection(collection);
    const local = id === '0' || id === undefined ? undefined : await table.get(id);
    if (!local) return createRecord(db, collection, given, id ?? '0', options);

    const passed = Object.keys(given).filter((k) => k !== 'id' && k !== '_t' && !isMetaField(k));
    const { validated, filled } = validateEdit(collection, local, given, passed, now);
    const record: StoredRecord = { ...local };
    for (const field of passed) setField(record, field, field in validated ? validated[field] : given[field]);
    for (const field of filled) setField(record, field, validated[field]);
    const changed = [...passed, ...filled].filter((f) => !sameValue(record[f], local[f]));
    if (changed.length === 0) return local.id;
    options.onId?.(local.id, false);

    const wasDeleted = isTombstone(collection, local);
    const tombstone = isTombstone(collection, record);
    await writeEdit(db, collection, record, {
      collection,
      id: local.id,
      op: tombstone && !wasDeleted ? 'delete' : 'update',
      changed: tombstone && !wasDeleted ? [...changed, ...deletionFields(collection)] : changed,
      before: local,
      tombstone,
      at: now,
    });
    return local.id;
  });
}

/**
 * Soft-deletes a record locally (docs/design.md, decision 9): `_d` = now and, for products, `visible`
 * false. It syncs like any edit (outbox op `delete`). Deleting a record that is already deleted
 * does nothing; an id the mirror does not hold is a `ValidationError`.
 */
export async function removeLocal(db: MirrorDb, collection: CollectionName, id: Id, options: LocalEditOptions): Promise<void> {
  assertCollection(collection, 'remove');
  const key = tryToId(id);
  if (key === undefined || key === '0') {
    throw new ValidationError(`remove ${collection}: not a record id: ${JSON.stringify(id)}`, {
      issues: [{ path: ['id'], message: 'must be a non-zero id (a canonical decimal string)' }],
    });
  }
  const { now } = options;
  await inTransaction(db, 'rw', [db.collection(collection), db._sync_outbox, db._sync_conflicts], async (db) => {
    const table = db.collection(collection);
    const local = await table.get(key);
    if (!local) {
      throw new ValidationError(`remove ${collection}: no record with id ${key} in the mirror`, {
        issues: [{ path: ['id'], message: `no ${collection} record ${key}` }],
      });
    }
    const removed = typeof local._d === 'number' && local._d !== 0 && (collection !== 'products' || local.visible === false);
    if (removed) return;
    const record: StoredRecord = { ...local, _d: now };
    if (collection === 'products') record.visible = false;
    const changed = deletionFields(collection).filter((f) => !sameValue(record[f], local[f]));
    await writeEdit(db, collection, record, { collection, id: key, op: 'delete', changed, before: local, tombstone: true, at: now });
  });
}

async function createRecord(db: MirrorDb, collection: CollectionName, given: Record<string, unknown>, id: Id, options: LocalEditOptions): Promise<Id> {
  const { now } = options;
  const info = COLLECTION_INFO[collection];
  let newId = id;
  const minted = newId === '0';
  if (minted) {
    if (info.tableId === undefined) {
      throw new ValidationError(
        `save ${collection}: a new ${collection} record cannot be created offline: the table has no table id for ` +
          'generating ids, and the id the service would give it cannot be learned (create it in the back-office, or pass its id)',
        { issues: [{ path: ['id'], message: `required: ${collection} has no table id, so a new record needs the id the service gave it` }] },
      );
    }
    newId = generateId(info.tableId, { now });
    // Another tab or worker has its own generator: in the same millisecond it can draw the same
    // slot. The transaction sees its record, and this create takes the next id instead.
    while ((await db.collection(collection).get(newId)) !== undefined) newId = generateId(info.tableId, { now });
  }
  const validated = validateWrite(collection, { ...given, id: newId, _v: undefined }, { now }) as Record<string, unknown>;
  options.onId?.(newId, true);
  const record: StoredRecord = { ...validated, id: newId, _v: 0 };
  const changed = Object.keys(record).filter((f) => !isMetaField(f) && record[f] !== undefined);
  const tombstone = isTombstone(collection, record);
  await writeEdit(db, collection, record, {
    collection,
    id: newId,
    op: tombstone ? 'delete' : 'create',
    changed,
    before: null,
    tombstone,
    at: now,
    minted,
  });
  return newId;
}

/**
 * The edit's own keys: a key whose value is `undefined` is not given (as in JSON, and as a form's
 * unset optional field means), so it keeps the record's value instead of taking the default.
 */
function definedFields(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

/**
 * The update laid on the local copy, validated as a whole, and the fields the edit did not give
 * that it must send anyway. A save sends the whole record (a POST may be a full upsert), so every
 * field must pass the write rules, also one the server filled with a value they refuse:
 * - a field with a documented default whose server value is refused (a `null` where the spec
 *   says "integer, default 0") takes the default, and counts as changed so the POST carries it;
 * - any other refused server value (a required field the server left empty) refuses the edit,
 *   with a message saying the value is the server's and the edit must give a valid one.
 */
function validateEdit(
  collection: CollectionName,
  local: StoredRecord,
  given: Record<string, unknown>,
  passed: readonly string[],
  now: number,
): { validated: Record<string, unknown>; filled: string[] } {
  const candidate: Record<string, unknown> = { ...local, ...given, id: local.id, _v: undefined };
  try {
    return { validated: validateWrite(collection, candidate, { now }), filled: [] };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const untouched = new Set<string>();
    for (const issue of error.issues) {
      const field = issue.path[0];
      // An issue on a field the edit gives, or on the record as a whole, is the edit's to fix.
      if (typeof field !== 'string' || field === 'id' || passed.includes(field)) throw error;
      untouched.add(field);
    }
    for (const field of untouched) delete candidate[field];
    try {
      return { validated: validateWrite(collection, candidate, { now }), filled: [...untouched] };
    } catch (again) {
      if (!(again instanceof ValidationError)) throw again;
      const issues = error.issues
        .filter((issue) => again.issues.some((i) => i.path[0] === issue.path[0]))
        .map((issue) => ({ ...issue, message: `${issue.message} (the server's value: a save sends the whole record, so give a valid one with this edit)` }));
      throw new ValidationError(`${collection} record: ${formatIssues(issues)}`, { issues });
    }
  }
}

/**
 * Writes the record and its folded outbox entry (inside the caller's transaction). The writes
 * are asked for together, nothing awaited between them: a transaction that commits between two
 * requests (a page reloaded or closed stops its script, and Firefox then commits what was asked
 * so far) would keep a record no push ever sends. Reads come first.
 */
async function writeEdit(db: MirrorDb, collection: CollectionName, record: StoredRecord, edit: LocalEdit): Promise<void> {
  const existing = await db._sync_outbox.where('[collection+id]').equals([collection, edit.id]).first();
  const entry: OutboxEntry = foldEdit(existing, edit);
  // The conflict row shows the record as the app now has it.
  const conflict = entry.state === 'conflict' ? await db._sync_conflicts.get(conflictKey(collection, edit.id)) : undefined;
  await writesTogether([
    db.collection(collection).put(record),
    db._sync_outbox.put(entry),
    ...(conflict ? [db._sync_conflicts.put({ ...conflict, local: record })] : []),
  ]);
}

/** Throws a `ValidationError` (`<what>: unknown collection ...`) unless `collection` is one of {@link COLLECTIONS}. */
export function assertCollection(collection: unknown, what: string): asserts collection is CollectionName {
  if (!isCollectionName(collection)) {
    throw new ValidationError(`${what}: unknown collection ${JSON.stringify(collection)}`, {
      issues: [{ path: ['collection'], message: `must be one of ${COLLECTIONS.join(', ')}` }],
    });
  }
}
