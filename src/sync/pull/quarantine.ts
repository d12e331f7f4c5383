import type { MirrorDb } from '../../db/mirror-db.js';
import { quarantineKey } from '../../db/quarantine-key.js';
import type { QuarantineRow, StoredRecord } from '../../db/sync-rows.js';
import type { ValidationIssue } from '../../errors/index.js';
import { tryToId } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { rescueParent } from './hydrations.js';
import type { RejectedLike } from '../sync-client.js';

/**
 * Quarantine rows for server records the read schema refused (docs/design.md, decision 11): each is
 * kept exactly as received with the reasons, never applied, and never taken for a deletion.
 * Each row is keyed by its record ({@link quarantineRow}), so writing them with
 * {@link holdInQuarantine} replaces the row of a record refused before.
 */
export function quarantineRows(collection: CollectionName | 'categories', rejected: readonly RejectedLike[], at: number): QuarantineRow[] {
  return rejected.map((r) => quarantineRow(collection, r.raw, r.issues, at));
}

/** What to do with the records the read schema refused (see {@link rescueRefusedParents}). */
export interface Refusals {
  /** Parents refused only for hydrated children, read again: to be applied with the rest. */
  rescued: StoredRecord[];
  /** Quarantine rows: the records refused for themselves, and the bad children of rescued parents. */
  rows: QuarantineRow[];
}

/**
 * Rescues the parents among the quarantine rows of `collection` that were refused only because
 * of a hydrated child (see `rescueParent`): such a parent is to be applied with its good
 * children, and only its bad children are quarantined, as records of their own collection (with
 * the parent row's time). Every other row stays as it is.
 */
export function rescueRefusedParents(collection: CollectionName | 'categories', rows: readonly QuarantineRow[]): Refusals {
  const out: Refusals = { rescued: [], rows: [] };
  for (const row of rows) {
    const rescue = row.collection === collection ? rescueParent(collection, row.record, row.issues) : undefined;
    if (!rescue) {
      out.rows.push(row);
      continue;
    }
    out.rescued.push(rescue.record);
    for (const child of rescue.refused) out.rows.push(quarantineRow(child.collection, child.raw, child.issues, row.at));
  }
  return out;
}

/** {@link rescueRefusedParents} for the refused records of a page (`now` is read only when there are some). */
export function refusalsOfPage(collection: CollectionName | 'categories', rejected: readonly RejectedLike[], now: () => number): Refusals {
  return rejected.length === 0 ? { rescued: [], rows: [] } : rescueRefusedParents(collection, quarantineRows(collection, rejected, now()));
}

/** The quarantine row of one refused record of `collection`, keyed by the record (`QuarantineRow.key`). */
export function quarantineRow(collection: CollectionName | 'categories', raw: unknown, issues: ValidationIssue[], at: number): QuarantineRow {
  const id = idOfRaw(raw);
  return { key: quarantineKey(collection, id, raw), collection, id, record: raw, issues, at };
}

/**
 * Stores quarantine rows, one per record: a record refused again replaces its row (a delta that
 * reads the same bad record on every pull, or a latest-orders poll, adds nothing). Must run inside
 * a read-write transaction over `db._sync_quarantine`.
 */
export async function holdInQuarantine(db: MirrorDb, rows: readonly QuarantineRow[]): Promise<void> {
  if (rows.length > 0) await db._sync_quarantine.bulkPut([...rows]);
}

/**
 * Deletes the quarantine rows of records of `collection` that were just applied: the server sent
 * a version the read schema accepts. A row whose refused record carries a readable `_v` newer than
 * the applied one stays (a stale copy that arrived late does not clear a newer refusal). Must run
 * in the transaction that applies the records.
 */
export async function releaseFromQuarantine(db: MirrorDb, collection: CollectionName | 'categories', applied: readonly StoredRecord[]): Promise<void> {
  if (applied.length === 0) return;
  // Most applies meet an empty quarantine: one cheap count instead of a lookup per record.
  if ((await db._sync_quarantine.where('collection').equals(collection).count()) === 0) return;
  const keys = applied.map((record) => quarantineKey(collection, record.id, record));
  const rows = await db._sync_quarantine.bulkGet(keys);
  const release = keys.filter((_key, i) => {
    const row = rows[i];
    return row !== undefined && refusedVersion(row.record) <= applied[i]!._v;
  });
  if (release.length > 0) await db._sync_quarantine.bulkDelete(release);
}

/** Deletes the quarantine rows of records the server no longer has (a reconcile sweep found them gone). */
export async function dropFromQuarantine(db: MirrorDb, collection: CollectionName | 'categories', ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db._sync_quarantine.bulkDelete(ids.map((id) => quarantineKey(collection, id, undefined)));
}

/** The id of a record as received, as a string (canonical when it is an id), when it has one that could be an id. */
export function idOfRaw(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? (tryToId(id) ?? String(id)) : undefined;
}

/** The `_v` of a refused record when it is a usable version, else -Infinity (any applied version is newer). */
function refusedVersion(raw: unknown): number {
  const v = typeof raw === 'object' && raw !== null ? (raw as { _v?: unknown })._v : undefined;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : -Infinity;
}
