import { conflictKey } from '../../db/conflict-key.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { ConflictRow, InflightRow, OutboxEntry, SentSnapshot, StoredRecord } from '../../db/sync-rows.js';
import type { Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { overlay, parentReferences } from '../records/index.js';
import { isTaken, readTaken, takenEntry, writeTaken, type TakenEntry } from './taken-entries.js';
import { inTransaction } from '../../db/in-transaction.js';

/** Why an edit of the other copy stays there (see {@link TakeOverReport}). */
export type LeftReason =
  /** This mirror has its own pending edit (or conflict) of the record: two bases cannot be merged here. */
  | 'edited-here'
  /** The record the edit belongs to is missing from the other copy's table: there is nothing to send. */
  | 'missing-record'
  /** It refers to a record created in the other copy that stays there: sent alone, it would point at nothing. */
  | 'parent-left'
  /** This mirror does not mirror its collection, so it would never push it. */
  | 'not-mirrored'
  /** It was edited again in the other copy while it moved: the earlier state was taken, the later one stays. */
  | 'edited-there';

/** What `mirror.takeOverEdits(dbName)` did. */
export interface TakeOverReport {
  /** The copy the edits came from. */
  dbName: string;
  /** Edits moved into this mirror's outbox: its next push sends them (waiting, refused and conflicts alike keep their state). */
  taken: number;
  /** Edits removed from the other copy, those taken by an earlier call cut short included. */
  cleared: number;
  /** Edits left in the other copy, with why: push them by opening that copy (`createMirror({ dbName })`). */
  left: { collection: CollectionName; id: Id; reason: LeftReason }[];
}

/** What a take-over moves between two copies of one tenant's data; the caller holds the other copy's lead. */
export interface TakeOverContext {
  /** This mirror's database. */
  current: MirrorDb;
  /** The other copy, opened (and upgraded, if it was older) as a mirror database. */
  other: MirrorDb;
  /** The collections this mirror mirrors: an edit of another would never be pushed from here. */
  collections: readonly CollectionName[];
  /** Ends the move before its next step (each step leaves both copies consistent). */
  signal?: AbortSignal;
}

/** One edit of the other copy as read there: its entry (with the snapshot of an unanswered POST), record and conflict row. */
interface OtherEdit {
  entry: OutboxEntry & { seq: number };
  record: StoredRecord | undefined;
  conflict: ConflictRow | undefined;
}

/**
 * Moves the other copy's unacknowledged edits into this mirror's outbox, so that this mirror
 * pushes them, with nothing lost and nothing pushed twice. The two copies are two IndexedDB
 * databases, which no transaction spans, so the move is made of three transactions, each of
 * which leaves both copies consistent, and which a later call repeats safely:
 *
 * 1. This mirror, in one transaction, takes the entries as they stand there (base, server state,
 *    changed fields, state, the snapshot of a POST never answered, a conflict row) with their
 *    records, and notes each taken entry (`TakenEntry`) beside them. A record this mirror holds
 *    newer from the server is noted on the entry as the server state, as a pull would, and shows
 *    the edit laid on it; the next push compares, merges or reports a conflict as for any edit.
 * 2. The other copy, in one transaction, removes the entries noted as taken, each only as it was
 *    taken (an entry edited there meanwhile stays, and is reported).
 * 3. This mirror forgets the notes of entries that have left the other copy.
 *
 * Cut short after 1, both copies hold the entries, and the note tells: the report of stranded
 * copies counts them apart (`takenOver`), and the next call skips step 1 for them and goes on.
 * An aborted `signal` cuts it short the same way, before step 1 or before step 2.
 */
export async function takeOverEdits(ctx: TakeOverContext): Promise<TakeOverReport> {
  const { current, other, signal } = ctx;
  const edits = await readOtherEdits(other);
  signal?.throwIfAborted();
  const { moved, left } = await takeInto(ctx, edits);
  signal?.throwIfAborted();
  const noted = await readTaken(current, other.name);
  const { cleared, editedThere } = await clearFromOther(other, noted);
  await inTransaction(current, 'rw', current._sync_meta, async (current) => {
    const done = new Set([...cleared, ...editedThere].map((t) => t.seq));
    await writeTaken(current, other.name, (await readTaken(current, other.name)).filter((t) => !done.has(t.seq)));
  });
  for (const t of editedThere) left.push({ collection: t.collection as CollectionName, id: t.id, reason: 'edited-there' });
  return { dbName: other.name, taken: moved, cleared: cleared.length, left };
}

/**
 * The other copy's outbox in edit order, each entry with its record and conflict row, read in
 * one transaction. An in-flight batch snapshot still there (a POST whose answer was never
 * handled) is laid on its entries as the `sent` snapshot it stands for, so this mirror's push
 * recognises such a POST if it landed.
 */
async function readOtherEdits(other: MirrorDb): Promise<OtherEdit[]> {
  return inTransaction(other, 'r', [...other.tables], async (other) => {
    const entries = (await other._sync_outbox.toArray()).filter((e): e is OutboxEntry & { seq: number } => e.seq !== undefined).sort((a, b) => a.seq - b.seq);
    const sent = sentSnapshots(await other._sync_inflight.toArray());
    const conflicts = new Map((await other._sync_conflicts.toArray()).map((row) => [row.key, row]));
    const edits: OtherEdit[] = [];
    for (const entry of entries) {
      const snapshot = sent.get(entry.seq);
      edits.push({
        entry: snapshot ? { ...entry, sent: snapshot } : entry,
        record: await other.collection(entry.collection).get(entry.id),
        conflict: conflicts.get(conflictKey(entry.collection, entry.id)),
      });
    }
    return edits;
  });
}

/** The `sent` snapshots in-flight rows stand for, by entry `seq` (the later row wins, as `foldInflightRows` does). */
function sentSnapshots(rows: readonly InflightRow[]): Map<number, SentSnapshot> {
  const out = new Map<number, SentSnapshot>();
  for (const row of [...rows].sort((a, b) => (a.key ?? 0) - (b.key ?? 0))) {
    for (const e of row.entries) out.set(e.seq, { record: { ...e.wire, _v: e.v }, fields: [...e.fields] });
  }
  return out;
}

/**
 * Step 1: takes what can be taken into this mirror, in one transaction, with the notes of what
 * was taken. Returns how many entries moved and which stay, with why.
 */
async function takeInto(ctx: TakeOverContext, edits: readonly OtherEdit[]): Promise<{ moved: number; left: TakeOverReport['left'] }> {
  const { current, other, collections } = ctx;
  const tables = [...new Set(edits.map((e) => e.entry.collection))].map((c) => current.collection(c));
  return inTransaction(current, 'rw', [...tables, current._sync_outbox, current._sync_conflicts, current._sync_meta], async (current) => {
    const noted = await readTaken(current, other.name);
    const notedBySeq = new Map(noted.map((t) => [t.seq, t]));
    const left: TakeOverReport['left'] = [];
    const candidates: OtherEdit[] = [];
    for (const edit of edits) {
      const { entry } = edit;
      const note = notedBySeq.get(entry.seq);
      if (note && isTaken(entry, note)) continue; // taken by an earlier call: step 2 finishes it
      let reason: LeftReason | undefined;
      if (!collections.includes(entry.collection)) reason = 'not-mirrored';
      else if (!edit.record) reason = 'missing-record';
      else if (await editedHere(current, entry)) reason = 'edited-here';
      if (reason) left.push({ collection: entry.collection, id: entry.id, reason });
      else candidates.push(edit);
    }
    const taking = withoutOrphans(candidates, edits, left);

    const records = new Map<CollectionName, StoredRecord[]>();
    const entries: OutboxEntry[] = [];
    const conflicts: ConflictRow[] = [];
    for (const edit of taking) {
      const { record, entry } = placed(edit, await current.collection(edit.entry.collection).get(edit.entry.id));
      const list = records.get(entry.collection) ?? [];
      list.push(record);
      records.set(entry.collection, list);
      entries.push(entry);
      if (entry.state === 'conflict') conflicts.push(edit.conflict!);
    }
    for (const [collection, list] of records) await current.collection(collection).bulkPut(list);
    // New `seq`s, in the other copy's edit order: after this mirror's own edits.
    if (entries.length > 0) await current._sync_outbox.bulkAdd(entries);
    if (conflicts.length > 0) await current._sync_conflicts.bulkPut(conflicts);
    const notes = taking.map((edit) => takenEntry(edit.entry)!);
    await writeTaken(current, other.name, [...noted, ...notes]);
    return { moved: taking.length, left };
  });
}

/** True when this mirror has its own outbox entry or conflict row for the entry's record. */
async function editedHere(current: MirrorDb, entry: OutboxEntry): Promise<boolean> {
  const own = await current._sync_outbox.where('[collection+id]').equals([entry.collection, entry.id]).count();
  return own > 0 || (await current._sync_conflicts.get(conflictKey(entry.collection, entry.id))) !== undefined;
}

/**
 * The candidates without those that refer to a record created in the other copy (an entry with
 * no base: not on the server yet) that stays there: each such one stays too (`parent-left`),
 * and so, in turn, do the records that refer to it.
 */
function withoutOrphans(candidates: readonly OtherEdit[], all: readonly OtherEdit[], left: TakeOverReport['left']): OtherEdit[] {
  const unborn = (e: OutboxEntry) => e.base === null;
  const stays = new Set(left.map((l) => `${l.collection}:${l.id}`));
  const unbornThere = new Set(all.filter((e) => unborn(e.entry)).map((e) => `${e.entry.collection}:${e.entry.id}`));
  let taking = [...candidates];
  for (let changed = true; changed; ) {
    changed = false;
    taking = taking.filter((edit) => {
      const orphan = parentReferences(edit.entry.collection).some(([field, parent]) => {
        const key = `${parent}:${String(edit.record?.[field])}`;
        return unbornThere.has(key) && stays.has(key);
      });
      if (!orphan) return true;
      left.push({ collection: edit.entry.collection, id: edit.entry.id, reason: 'parent-left' });
      stays.add(`${edit.entry.collection}:${edit.entry.id}`);
      changed = true;
      return false;
    });
  }
  return taking;
}

/**
 * The record and entry an edit of the other copy becomes here, given this mirror's own copy of
 * the record (`mine`, a server state: it has no edit here). When `mine` is newer than the
 * server state the edit knows of (or the server has a record the edit created), it is noted on
 * the entry as the server's latest, and the record shows the edit laid on it, as a pull does
 * (`applyServerRecords`); otherwise the other copy's record comes as it is. The entry gets a new
 * `seq` here; one in conflict without its row becomes pending, and the push checks it again.
 */
function placed(edit: OtherEdit, mine: StoredRecord | undefined): { record: StoredRecord; entry: OutboxEntry } {
  const { seq: _seq, ...rest } = edit.entry;
  const entry: OutboxEntry = rest;
  if (entry.state === 'conflict' && !edit.conflict) entry.state = 'pending';
  const record = edit.record!;
  const known = entry.server ?? entry.base;
  const newest = Math.max(known?._v ?? -1, record._v);
  if (mine && mine._v > newest) return { record: overlay(mine, record, entry.changed), entry: { ...entry, server: mine } };
  return { record, entry };
}

/**
 * Step 2: removes from the other copy, in one transaction, the entries this mirror has taken,
 * each only if it is still as taken (with its conflict row, and its place in an in-flight
 * batch snapshot). An entry edited there since stays: it is returned in `editedThere`.
 */
async function clearFromOther(other: MirrorDb, taken: readonly TakenEntry[]): Promise<{ cleared: TakenEntry[]; editedThere: TakenEntry[] }> {
  if (taken.length === 0) return { cleared: [], editedThere: [] };
  return inTransaction(other, 'rw', [other._sync_outbox, other._sync_conflicts, other._sync_inflight], async (other) => {
    const cleared: TakenEntry[] = [];
    const editedThere: TakenEntry[] = [];
    const currents = await other._sync_outbox.bulkGet(taken.map((t) => t.seq));
    const deletes: number[] = [];
    const conflictDeletes: string[] = [];
    taken.forEach((t, i) => {
      const entry = currents[i];
      if (!entry) cleared.push(t); // gone already (an earlier call removed it)
      else if (isTaken(entry, t)) {
        cleared.push(t);
        deletes.push(t.seq);
        conflictDeletes.push(conflictKey(entry.collection, entry.id));
      } else editedThere.push(t);
    });
    await other._sync_outbox.bulkDelete(deletes);
    await other._sync_conflicts.bulkDelete(conflictDeletes);
    const gone = new Set(deletes);
    for (const row of await other._sync_inflight.toArray()) {
      const rest = row.entries.filter((e) => !gone.has(e.seq));
      if (rest.length === row.entries.length) continue;
      if (rest.length === 0) await other._sync_inflight.delete(row.key!);
      else await other._sync_inflight.put({ ...row, entries: rest });
    }
    return { cleared, editedThere };
  });
}
