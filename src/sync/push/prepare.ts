import { readByIds } from '../../db/read-by-ids.js';
import { foldInflightRows } from '../../db/inflight.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { ConflictRow, InflightEntry, OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import type { Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { checkBase, checkEntry, knownServerState, type CheckOutcome } from '../conflicts/conflict-check.js';
import { conflictKey } from '../../db/conflict-key.js';
import type { ConflictStrategy } from '../conflicts/conflict-strategy.js';
import { withoutSent } from '../outbox/outbox-sent.js';
import { isIdCollision } from './id-collisions.js';
import { parentReferences } from '../records/relations.js';
import type { PushCounts } from './push-report.js';
import { buildWireRecord, type WireRecord } from '../records/wire-record.js';
import { inTransaction } from '../../db/in-transaction.js';
import { outboxOf } from '../../db/outbox-of.js';

/** One record on its way out: its entry as it stood when the POST was built, and what is sent. */
export interface OutgoingRecord {
  /** The entry (with its `seq`) as it stood when the record was built. */
  entry: OutboxEntry & { seq: number };
  /** The record the table held, which the POST carries. */
  record: StoredRecord;
  /** The POST element. */
  wire: WireRecord;
}

/** What the in-flight row of its batch holds for an outgoing record (see `writeInflight`). */
export function inflightEntryOf(item: OutgoingRecord): InflightEntry {
  return { seq: item.entry.seq, wire: item.wire, v: item.entry.base?._v ?? 0, fields: item.entry.changed };
}

/**
 * What {@link prepareCollection} found: the records to send, or the creates that meet another
 * record under their id (`collisions`, outbox `seq`s, see `isIdCollision`), in which case nothing
 * was written and nothing counted: they are moved to fresh ids first (`moveCollidingCreates`),
 * then the collection is prepared again.
 */
export interface PreparedCollection {
  out: OutgoingRecord[];
  collisions: number[];
}

/**
 * Decides, in one transaction over the collection's table, the outbox and the conflicts, what
 * each pending entry of `collection` becomes before a push (see `checkEntry`), writes the
 * outcome, and returns the records to send in the order the edits were made (entry `seq`):
 * - a record to send whose entry was rebased on a newer server state: the merged record goes
 *   into the table and the entry now says `base` = that server state;
 * - nothing to send: the entry leaves the outbox and the table gets the server's record;
 * - an unresolved conflict: the entry waits in state `conflict`, with a conflict row;
 * - a record to send that references a parent the server does not have yet (its create still in
 *   the outbox): the entry stays pending, untouched, and is counted in `awaitingParent`.
 * An entry that goes out as it stands is not written: the snapshot of what its POST carries is
 * written by the pusher, one `_sync_inflight` row per batch, before the POST (see `writeInflight`).
 * First, rows of the collection that a dead process left are folded into their entries' `sent`
 * snapshots, so that the check recognises a POST of theirs that landed (see `SentSnapshot`).
 * Entries rejected or in conflict are not touched: they do not block the others.
 *
 * A create that meets another record under its id (see `isIdCollision`) is reported instead
 * (`collisions`, nothing written) when `collisions` is `'report'`; with `'conflict'` (after a
 * move, for one that still collides) it becomes a conflict row, never an overwrite.
 */
export async function prepareCollection(
  db: MirrorDb,
  collection: CollectionName,
  strategy: ConflictStrategy,
  now: () => number,
  counts: PushCounts,
  collisions: 'report' | 'conflict' = 'report',
): Promise<PreparedCollection> {
  return inTransaction(db, 'rw', [db.collection(collection), db._sync_outbox, db._sync_conflicts, db._sync_inflight], async (db) => {
    const table = db.collection(collection);
    await foldInflightRows(db._sync_outbox, db._sync_inflight, collection);
    const entries = (await outboxOf(db._sync_outbox, collection).toArray())
      .filter((e): e is OutboxEntry & { seq: number } => e.state === 'pending' && e.seq !== undefined)
      .sort((a, b) => a.seq - b.seq);
    if (entries.length === 0) return { out: [], collisions: [] };
    // Records created here have ids made in the same stretch of time, which sit together in the table.
    const created = entries.filter((e) => e.base === null).map((e) => e.id);
    const updated = entries.filter((e) => e.base !== null).map((e) => e.id);
    const [ofCreated, ofUpdated] = await Promise.all([readByIds(table, created, 'dense'), table.bulkGet(updated)]);
    const stored = new Map<string, StoredRecord | undefined>([...created.map((id, i) => [id, ofCreated[i]] as const), ...updated.map((id, i) => [id, ofUpdated[i]] as const)]);
    const locals = entries.map((e) => stored.get(e.id));
    const outcomes = entries.map((entry, i) => {
      const local = locals[i];
      return local && checkEntry(entry, local, knownServerState(entry, local), strategy);
    });
    if (collisions === 'report') {
      const colliding = entries.filter((entry, i) => isIdCollision(entry, outcomes[i])).map((entry) => entry.seq);
      if (colliding.length > 0) return { out: [], collisions: colliding };
    }
    const unborn = await unbornParents(db, collection, outcomes);

    const writes: PreparedWrites = { out: [], tablePuts: [], entryPuts: [], entryDeletes: [], conflictPuts: [] };
    const context: EntryContext = { collection, now, counts, unborn };
    entries.forEach((entry, i) => prepareEntry(entry, outcomes[i], context, writes));
    if (writes.tablePuts.length > 0) await table.bulkPut(writes.tablePuts);
    if (writes.entryPuts.length > 0) await db._sync_outbox.bulkPut(writes.entryPuts);
    if (writes.entryDeletes.length > 0) await db._sync_outbox.bulkDelete(writes.entryDeletes);
    if (writes.conflictPuts.length > 0) await db._sync_conflicts.bulkPut(writes.conflictPuts);
    return { out: writes.out, collisions: [] };
  });
}

/** What the entries' outcomes write, gathered into a few bulk requests, and the records to send. */
interface PreparedWrites {
  out: OutgoingRecord[];
  tablePuts: StoredRecord[];
  entryPuts: OutboxEntry[];
  entryDeletes: number[];
  conflictPuts: ConflictRow[];
}

/** What every entry of one preparation shares. */
interface EntryContext {
  collection: CollectionName;
  now: () => number;
  counts: PushCounts;
  unborn: Unborn | undefined;
}

/** Turns one pending entry's check outcome (`undefined`: its record is missing) into writes and, maybe, a record to send. */
function prepareEntry(entry: OutboxEntry & { seq: number }, outcome: CheckOutcome | undefined, ctx: EntryContext, writes: PreparedWrites): void {
  if (!outcome) {
    // Nothing to send: the record left its table (a database wiped by hand?). Said, not dropped.
    writes.entryPuts.push({ ...entry, state: 'rejected', reason: `the ${ctx.collection} record ${entry.id} is missing from its table` });
    ctx.counts.rejected++;
    return;
  }
  if (outcome.kind === 'acknowledge') {
    writes.tablePuts.push(outcome.record);
    writes.entryDeletes.push(entry.seq);
    ctx.counts.acknowledged++;
    return;
  }
  if (outcome.kind === 'conflict') {
    writes.entryPuts.push({ ...entry, server: outcome.server, state: 'conflict', reason: `conflict on ${outcome.fields.join(', ')}` });
    writes.conflictPuts.push({
      key: conflictKey(ctx.collection, entry.id),
      collection: ctx.collection,
      id: entry.id,
      local: outcome.local,
      server: outcome.server,
      // The base the check used: the state a landed earlier POST wrote, else the entry's.
      base: checkBase(entry, outcome.server).base,
      fields: outcome.fields,
      at: ctx.now(),
    });
    ctx.counts.conflicts++;
    return;
  }
  if (ctx.unborn !== undefined && referencesAny(outcome.record, ctx.unborn)) {
    // Its parent is not on the server yet: the entry waits, untouched, for a later push.
    ctx.counts.awaitingParent++;
    return;
  }
  let current: OutboxEntry & { seq: number } = entry;
  if (outcome.rebased) {
    // The server has the record now: what goes out is an update of that state.
    current = {
      ...withoutSent(entry),
      base: outcome.base,
      server: null,
      changed: outcome.changed,
      op: entry.op === 'create' ? 'update' : entry.op,
    };
    writes.tablePuts.push(outcome.record);
    writes.entryPuts.push(current);
  }
  writes.out.push({ entry: current, record: outcome.record, wire: buildWireRecord(outcome.base, outcome.record, outcome.changed) });
}

/** Parent records the server does not have yet, by relation field of the child collection. */
type Unborn = readonly (readonly [field: string, ids: ReadonlySet<Id>])[];

/**
 * The parents referenced by the records about to go out that are still created locally only:
 * their outbox entry has no `base` (a create, or a create deleted again, that the server has not
 * acknowledged: refused, in conflict, or not pushed). Parent collections are pushed first, so
 * their acknowledged creates have already left the outbox. Reads, per parent collection
 * referenced, only that collection's outbox entries between the lowest and highest id referenced
 * (one `[collection+id]` range request each, usually empty). `undefined` when there are none.
 */
async function unbornParents(db: MirrorDb, collection: CollectionName, outcomes: readonly (CheckOutcome | undefined)[]): Promise<Unborn | undefined> {
  const references = parentReferences(collection);
  if (references.length === 0) return undefined;
  const wanted = new Map<CollectionName, Set<Id>>();
  for (const outcome of outcomes) {
    if (outcome?.kind !== 'push') continue;
    for (const [field, parent] of references) {
      const id = outcome.record[field];
      if (typeof id !== 'string' || id === '0') continue;
      let ids = wanted.get(parent);
      if (!ids) wanted.set(parent, (ids = new Set()));
      ids.add(id);
    }
  }
  if (wanted.size === 0) return undefined;
  const found = new Map<CollectionName, Set<Id>>();
  await Promise.all(
    [...wanted].map(async ([parent, ids]) => {
      let low = '';
      let high = '';
      for (const id of ids) {
        if (low === '' || id < low) low = id;
        if (id > high) high = id;
      }
      const entries = await db._sync_outbox.where('[collection+id]').between([parent, low], [parent, high], true, true).toArray();
      const unborn = entries.filter((e) => e.base === null && ids.has(e.id)).map((e) => e.id);
      if (unborn.length > 0) found.set(parent, new Set(unborn));
    }),
  );
  if (found.size === 0) return undefined;
  return references.filter(([, parent]) => found.has(parent)).map(([field, parent]) => [field, found.get(parent)!] as const);
}

/** True when one of the record's relation fields names one of those ids. */
function referencesAny(record: StoredRecord, unborn: Unborn): boolean {
  return unborn.some(([field, ids]) => {
    const id = record[field];
    return typeof id === 'string' && ids.has(id);
  });
}

