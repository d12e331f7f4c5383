import type { OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import { chooseSide, type ConflictStrategy } from './conflict-strategy.js';
import { mergeRecords } from './merge.js';
import { readSent } from '../outbox/outbox-sent.js';
import { diffFields, isMetaField, overlay, sameValue, setField } from '../records/fields.js';
import { deletionFields, isTombstone } from '../records/tombstone.js';

/** What to do with one outbox entry before a push. */
export type CheckOutcome =
  /** Send it. `record` is what the table should hold, `base`/`changed` what the entry should say. */
  | { kind: 'push'; record: StoredRecord; base: StoredRecord | null; changed: string[]; rebased: boolean }
  /** Nothing left to send: the server already has it (or the strategy kept the server's). */
  | { kind: 'acknowledge'; record: StoredRecord }
  /** Unresolved: a conflict row with these fields, and the entry waits. */
  | { kind: 'conflict'; fields: string[]; local: StoredRecord; server: StoredRecord };

/**
 * The server state a push compares an entry with: the latest one a pull noted on the entry;
 * else, when something wrote a newer server version into the table without noting it, that
 * record with the app's changed fields taken back to their base values (the table shows the
 * app's edit laid on the server state, and the edit must not be mistaken for the server's);
 * else the base the edit was made on. `null` when the server has never had the record, as far
 * as anyone knows.
 */
export function knownServerState(entry: OutboxEntry, local: StoredRecord | undefined): StoredRecord | null {
  if (entry.server) return entry.server;
  if (local && entry.base && local._v > entry.base._v) return overlay(local, entry.base, entry.changed);
  return entry.base;
}

/**
 * Decides what a push does with one pending entry (docs/design.md, decision 7):
 * - the server did not change the record since the edit's base: push the app's changes on it;
 * - the server holds what an earlier push sent (its `sent` snapshot) whose answer was lost: that
 *   push counts as done, and the state it wrote (the server state with the sent record laid on
 *   it) is the base of the three-way check below, so the changes made since on either side merge
 *   or conflict like any others;
 * - the server changed it: merge field by field; fields changed on both sides, a deletion against
 *   an edit and an edit against a deletion are conflicts, settled by the strategy or left as a
 *   conflict row;
 * - a create whose id the server already has, not recognised as landed by its `sent` snapshot,
 *   is compared with what the server has: the same values mean an earlier push that left no
 *   snapshot landed, and it is just acknowledged (fields the server lacks going out); a field
 *   held with another value, or a deletion on the server, means another record with the same id:
 *   a conflict whatever the strategy (a resolver is not asked), never a merge or an overwrite.
 *   (The push moves such a create to a fresh id before this check when the id was generated
 *   here and no POST has carried it: see `isIdCollision`. What is left is a create with an id
 *   the app chose, or one that may have gone out.)
 */
export function checkEntry(
  entry: OutboxEntry,
  local: StoredRecord,
  known: StoredRecord | null,
  strategy: ConflictStrategy,
): CheckOutcome {
  const { collection } = entry;
  if (!known) return { kind: 'push', record: local, base: null, changed: entry.changed, rebased: false };

  const { base, landed } = checkBase(entry, known);
  const serverChanged = landed || base === null || known._v !== base._v;
  if (!serverChanged) return { kind: 'push', record: local, base, changed: entry.changed, rebased: false };

  const localDeleted = entry.op === 'delete';
  const serverDeleted = isTombstone(collection, known);
  if (localDeleted && serverDeleted) return { kind: 'acknowledge', record: known };

  const merged = mergeRecords(base, local, known, entry.changed);
  // A deletion against an edit, or an edit against a deletion, is a conflict whatever the fields.
  let fields = merged.conflicts;
  if (localDeleted && base !== null && diffFields(base, known).length > 0) fields = ['_d'];
  if (serverDeleted && !localDeleted && (base === null || !isTombstone(collection, base))) fields = ['_d'];

  if (fields.length === 0) return settled(merged.record, merged.changed, known);

  const deletion = fields.length === 1 && fields[0] === '_d';
  const mine = deletion ? appView(entry, local, known) : local;
  // A create whose id the server holds with other values, and not as this app's own landed
  // create: another device drew the same id. Two unrelated records are never merged or
  // overwritten by a strategy: the app decides (see `resolveConflict`).
  if (base === null) return { kind: 'conflict', fields, local: mine, server: known };
  const info = { collection, id: entry.id, fields };
  const choice = chooseSide(strategy, mine, known, base, info);
  if (choice === null) return { kind: 'conflict', fields, local: mine, server: known };
  if (choice === 'server') {
    if (deletion) return { kind: 'acknowledge', record: known };
    return settled(merged.record, merged.changed, known);
  }
  if (choice === 'local') {
    const record = deletion ? mine : overlay(merged.record, local, fields);
    return settled(record, diffFields(record, known), known);
  }
  const record: StoredRecord = { ...choice, id: entry.id, _v: known._v };
  for (const field of Object.keys(known)) if (isMetaField(field) && !(field in choice)) record[field] = known[field];
  return settled(record, diffFields(record, known), known);
}

/**
 * The base a push checks an entry against, given the server state `known`: when an earlier push
 * whose answer was lost did land (the entry's `sent` snapshot holds the server's values of every
 * field it carried), the state that POST wrote: `known` with the sent record laid on it. It is
 * the base of what changed since on both sides: a later local edit and a later server edit of
 * one field conflict. Otherwise the entry's own `base` (`null` for a create).
 */
export function checkBase(entry: OutboxEntry, known: StoredRecord): { base: StoredRecord | null; landed: boolean } {
  const sent = readSent(entry);
  if (sent !== undefined && sent.fields.every((f) => sameValue(sent.record[f], known[f]))) {
    return { base: { ...known, ...sent.record, id: entry.id, _v: known._v }, landed: true };
  }
  return { base: entry.base, landed: false };
}

/** A settled outcome: push what still differs from the server, or acknowledge when nothing does. */
function settled(record: StoredRecord, changed: string[], known: StoredRecord): CheckOutcome {
  if (changed.length === 0) return { kind: 'acknowledge', record: known };
  return { kind: 'push', record: { ...record, _v: known._v }, base: known, changed, rebased: true };
}

/**
 * The record as the app means it, laid on a server state: the app's changed fields, and the
 * deletion fields (`_d`, products' `visible`) as the app left them: deleted when it deleted the
 * record, else as they were when it made its edit. (The table's copy cannot say: a pull lays
 * only the changed fields on a newer server state, so it shows the server's deletion.)
 */
export function appView(entry: OutboxEntry, local: StoredRecord, server: StoredRecord): StoredRecord {
  const record = overlay(server, local, entry.changed);
  const source = entry.op === 'delete' || entry.base === null ? local : entry.base;
  for (const field of deletionFields(entry.collection)) setField(record, field, source[field]);
  return record;
}
