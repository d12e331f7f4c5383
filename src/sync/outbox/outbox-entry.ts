import type { Id } from '../../ids/id.js';
import type { OutboxEntry, OutboxOp, StoredRecord } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';

/** One local edit, as the outbox records it. */
export interface LocalEdit {
  collection: CollectionName;
  id: Id;
  /** What the edit did: a record new to the server, a change, or a soft delete. */
  op: OutboxOp;
  /** Fields whose values this edit changed. */
  changed: readonly string[];
  /** The record before the edit: the server state when the record has no pending entry yet; null for a create. */
  before: StoredRecord | null;
  /** True when the record is deleted after the edit (`_d` set, or a product not `visible`). */
  tombstone: boolean;
  /** When the edit was made (local ms). */
  at: number;
  /** A create whose id the mirror generated (see `OutboxEntry.minted`). */
  minted?: boolean;
}

/**
 * The outbox entry after an edit: a new entry, or the record's existing one with the edit folded
 * in (docs/design.md, decision 5). One entry per record however many edits it took:
 * - `changed` is the union of the fields changed by every edit;
 * - `base` stays the server state the first edit was made on (a pull may have moved `server`);
 * - a create stays a create until the server acknowledged it; a delete wins over earlier edits;
 *   an edit that brings a deleted record back makes it an update (or a create again);
 * - a rejected entry becomes pending again (the app changed what the server refused);
 *   an entry in conflict stays in conflict (the edit waits with it for a decision);
 * - `localVersion` moves on every edit, so a push in flight can tell that the record moved.
 */
export function foldEdit(existing: OutboxEntry | undefined, edit: LocalEdit): OutboxEntry {
  if (!existing) {
    return {
      collection: edit.collection,
      id: edit.id,
      op: edit.op,
      changed: [...edit.changed].sort(),
      base: edit.op === 'create' ? null : edit.before,
      server: null,
      localVersion: 1,
      createdAt: edit.at,
      updatedAt: edit.at,
      state: 'pending',
      attempts: 0,
      ...(edit.minted && edit.op !== 'update' ? { minted: true as const } : {}),
    };
  }
  const changed = [...new Set([...existing.changed, ...edit.changed])].sort();
  const entry: OutboxEntry = {
    ...existing,
    op: nextOp(existing, edit),
    changed,
    localVersion: existing.localVersion + 1,
    updatedAt: edit.at,
    state: existing.state === 'conflict' ? 'conflict' : 'pending',
  };
  if (existing.state === 'rejected') delete entry.reason;
  return entry;
}

function nextOp(existing: OutboxEntry, edit: LocalEdit): OutboxOp {
  if (edit.op === 'delete') return 'delete';
  // An edit that brought a deleted record back: it lives on as what it was before the delete.
  if (existing.op === 'delete' && !edit.tombstone) return existing.base === null ? 'create' : 'update';
  return existing.op;
}
