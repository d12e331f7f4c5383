import type { Table } from 'dexie';
import type { MirrorDb } from '../../db/mirror-db.js';
import { writesTogether } from '../../db/writes-together.js';
import { putInPieces } from '../../db/put-in-pieces.js';
import { createTimeSlicer, type TimeSlicer } from '../../schema/time-slicer.js';
import type { OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import { readByIds, type IdLookup } from '../../db/read-by-ids.js';
import { outboxOf } from '../../db/outbox-of.js';
import type { CollectionName } from '../../schema/collections.js';
import { HYDRATIONS, splitHydrations } from './hydrations.js';
import { releaseFromQuarantine } from './quarantine.js';
import { overlay } from '../records/fields.js';
import type { Id } from '../../ids/id.js';
import { isBeforeEdge } from './edge.js';

/** What applying a batch of server records did. */
export interface ApplyResult {
  /** Records written to their table (newer than the local copy, or new). */
  written: number;
  /** Records skipped because the local copy is as new or newer. */
  skipped: number;
  /** Records that have a pending local edit: the server state was noted on the outbox entry. */
  deferred: number;
  /** Highest `_v` among the records given (children excluded). */
  maxV: number;
}

/**
 * The tables a transaction applying records of `collection` must include: its table, the child
 * table its hydrations are split into, the outbox, and the quarantine (an applied record leaves it).
 */
export function applyTables(db: MirrorDb, collection: CollectionName | 'categories'): Table[] {
  // The child table its hydrations are split into, if it has one.
  const child = collection === 'categories' ? undefined : HYDRATIONS[collection]?.child;
  const names: string[] = child ? [collection, child] : [collection];
  return [...names.map((n) => db.table(n)), db._sync_outbox, db._sync_quarantine];
}

/**
 * Applies records that came from the server (a pull page, a webhook, a latest-orders poll)
 * to the mirror. Must run inside a read-write transaction over {@link applyTables}.
 *
 * Rules, in the order they are enforced:
 * - a record is written only if its `_v` is newer than the local copy's (so re-reading an
 *   overlap, or a late page, is a no-op);
 * - a record with a pending local edit is not overwritten: the server state is noted on the
 *   outbox entry (`entry.server`) for the push to rebase on, and the table gets the new server
 *   state with the app's changed fields laid on top, so the UI keeps showing the edit;
 * - hydrations are split into their own tables under the same rules;
 * - tombstones (`_d` != 0) are stored like any record and hidden by the query helpers;
 * - a record written (or noted on its outbox entry) leaves the quarantine: its row, if an earlier
 *   version was refused, is deleted (see `releaseFromQuarantine`).
 *
 * Every read (local copies, pending edits, quarantine) of the records and of their split children
 * is sent before the first answer is awaited, then the writes of each table together: in a browser
 * each awaited request is a round trip to the engine's database process, and a page then costs one
 * for its reads and one per table written instead of one per step. The result counts the records
 * given, not their children.
 */
export async function applyServerRecords(
  db: MirrorDb,
  collection: CollectionName | 'categories',
  incoming: readonly StoredRecord[],
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  if (incoming.length === 0) return { written: 0, skipped: 0, deferred: 0, maxV: 0 };
  const groups = splitIntoGroups(collection, incoming, options.contiguous === true);
  const states = await Promise.all(groups.map((group) => readLocalState(db, group)));
  const plans = groups.map((group, i) => planWrites(group, states[i]!, options.outside));
  // Each record is copied for the database on this thread as its write is sent: the writes are cut
  // into pieces, one table's after the other's, that give the page's UI its turns in between.
  const slicer = options.slicer ?? createTimeSlicer();
  slicer.restart();
  for (const [i, plan] of plans.entries()) await writePlan(db, groups[i]!, states[i]!, plan, slicer);
  return { ...plans[0]!.counts, maxV: highestVersion(incoming) };
}

/** The highest `_v` among `records` (0 for none). */
export function highestVersion(records: readonly StoredRecord[]): number {
  let maxV = 0;
  for (const record of records) if (record._v > maxV) maxV = record._v;
  return maxV;
}

/** The records of one table to apply: the given collection first, then each child table. */
interface Group {
  collection: CollectionName | 'categories';
  /** The newest copy of each record (by `_v`), hydrations split off. */
  records: StoredRecord[];
  /** How the local copies are read (see {@link IdLookup}). */
  lookup: IdLookup;
}

/** What the database holds for a group's records, read before anything is decided. */
interface LocalState {
  locals: (StoredRecord | undefined)[];
  entries: Map<string, OutboxEntry>;
  /** Quarantine rows of the group's collection: when 0, nothing can leave the quarantine. */
  quarantined: number;
}

/** What to write for a group. */
interface Plan {
  toPut: StoredRecord[];
  toUpdate: OutboxEntry[];
  /** The server records taken (written, or noted on their outbox entry). */
  taken: StoredRecord[];
  counts: Omit<ApplyResult, 'maxV'>;
}

/** The given records, then their split children grouped by table, each record once at its newest `_v`. */
function splitIntoGroups(collection: CollectionName | 'categories', incoming: readonly StoredRecord[], contiguous: boolean): Group[] {
  const latestBy = new Map<CollectionName | 'categories', Map<string, StoredRecord>>();
  const groups: Group[] = [];
  const add = (into: CollectionName | 'categories', raw: StoredRecord, lookup: Group['lookup']): void => {
    let latest = latestBy.get(into);
    if (!latest) {
      latest = new Map();
      latestBy.set(into, latest);
      groups.push({ collection: into, records: [], lookup });
    }
    const { record, children } = splitHydrations(raw);
    const seen = latest.get(record.id);
    if (!seen || record._v > seen._v) latest.set(record.id, record);
    // A child table's records are never a whole id range; those of a whole range of parents are
    // mostly new to their table on a first sync.
    for (const child of children) add(child.collection, child.record, contiguous ? 'probe' : 'ids');
  };
  for (const raw of incoming) add(collection, raw, contiguous ? 'range' : 'ids');
  for (const group of groups) group.records = [...latestBy.get(group.collection)!.values()];
  return groups;
}

/** Sends every read of a group at once (see {@link applyServerRecords}). */
async function readLocalState(db: MirrorDb, group: Group): Promise<LocalState> {
  const table = db.table<StoredRecord, string>(group.collection);
  const ids = group.records.map((r) => r.id);
  const [locals, entries, quarantined] = await Promise.all([
    readByIds(table, ids, group.lookup),
    group.collection === 'categories' ? new Map<string, OutboxEntry>() : outboxEntriesOf(db, group.collection, ids),
    db._sync_quarantine.where('collection').equals(group.collection).count(),
  ]);
  return { locals, entries, quarantined };
}

/** Decides, record by record, what a group writes (the rules of {@link applyServerRecords}). */
function planWrites(group: Group, state: LocalState, outside: Id | undefined): Plan {
  const plan: Plan = { toPut: [], toUpdate: [], taken: [], counts: { written: 0, skipped: 0, deferred: 0 } };
  group.records.forEach((record, i) => {
    const local = state.locals[i];
    const entry = state.entries.get(record.id);
    if (entry) {
      const known = entry.server ?? entry.base;
      if (known && record._v <= known._v) {
        plan.counts.skipped++;
        return;
      }
      plan.toUpdate.push({ ...entry, server: record });
      // The new server state with the app's changed fields laid on top.
      plan.toPut.push(local ? overlay(record, local, entry.changed) : record);
      plan.taken.push(record);
      plan.counts.deferred++;
      return;
    }
    if ((local && record._v <= local._v) || (!local && outside !== undefined && isBeforeEdge(record, outside))) {
      plan.counts.skipped++;
      return;
    }
    plan.toPut.push(record);
    plan.taken.push(record);
    plan.counts.written++;
  });
  return plan;
}

/** Sends a group's writes (its table, its outbox entries, its quarantine release). */
async function writePlan(db: MirrorDb, group: Group, state: LocalState, plan: Plan, slicer: TimeSlicer): Promise<void> {
  const table = db.table<StoredRecord, string>(group.collection);
  await writesTogether([
    putInPieces(table, plan.toPut, slicer),
    plan.toUpdate.length > 0 ? db._sync_outbox.bulkPut(plan.toUpdate) : undefined,
    state.quarantined > 0 ? releaseFromQuarantine(db, group.collection, plan.taken) : undefined,
  ]);
}

/** Options of {@link applyServerRecords}. */
export interface ApplyOptions {
  /**
   * The records are every server record in their id range (a page of a traversal without a
   * version filter). The local copies are then read with one key-range query instead of a
   * lookup per id, which costs next to nothing on a first sync, where the range is empty.
   */
  contiguous?: boolean;
  /**
   * Cuts the writes into pieces that give the event loop turns (see `putInPieces`); tests give one
   * with their own clock. @default a slicer of `SLICE_BUDGET_MS` on `performance.now`
   */
  slicer?: TimeSlicer;
  /**
   * The history window's id edge (see `edgeOf`): a record created before it is written only over
   * a copy the mirror still holds (until pruning takes it) or where an edit of it waits; any other
   * is skipped, never kept.
   */
  outside?: Id;
}

/** The outbox entries of the records `ids` of `collection`, in any state, by record id. */
async function outboxEntriesOf(db: MirrorDb, collection: CollectionName, ids: string[]): Promise<Map<string, OutboxEntry>> {
  const found = new Map<string, OutboxEntry>();
  // Most pages meet an empty outbox: one cheap count instead of a lookup per record.
  if ((await outboxOf(db._sync_outbox, collection).count()) === 0) return found;
  const rows = await db._sync_outbox.where('[collection+id]').anyOf(ids.map((id) => [collection, id])).toArray();
  for (const row of rows) found.set(row.id, row);
  return found;
}
