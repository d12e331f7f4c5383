import { takenOverKey } from '../../db/meta-keys.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { OutboxEntry } from '../../db/sync-rows.js';

/**
 * One outbox entry of another copy that this mirror has taken into its own outbox, as it stood
 * when taken: the copy's `seq`, its record, and what changes whenever the entry does (its
 * creation time and local version). Kept in this mirror's `_sync_meta` (see
 * {@link takenKey}) from the transaction that takes the entry until the entry has left the
 * other copy, so a take-over cut short is finished by the next one without taking anything twice.
 */
export interface TakenEntry {
  seq: number;
  collection: string;
  id: string;
  createdAt: number;
  localVersion: number;
}

/** The `_sync_meta` key of the entries taken from the copy `dbName`. */
export function takenKey(dbName: string): string {
  return takenOverKey(dbName);
}

/** The entry as a {@link TakenEntry}, when it has a `seq` (a stored one has). */
export function takenEntry(entry: OutboxEntry): TakenEntry | undefined {
  if (entry.seq === undefined) return undefined;
  return { seq: entry.seq, collection: entry.collection, id: entry.id, createdAt: entry.createdAt, localVersion: entry.localVersion };
}

/** True when `entry` is the one `taken` describes, unchanged since (an edit there moves its local version). */
export function isTaken(entry: OutboxEntry, taken: TakenEntry): boolean {
  return (
    entry.seq === taken.seq &&
    entry.collection === taken.collection &&
    entry.id === taken.id &&
    entry.createdAt === taken.createdAt &&
    entry.localVersion === taken.localVersion
  );
}

/** The entries of `dbName` this mirror has taken and not yet seen leave that copy (read inside or outside a transaction). */
export async function readTaken(db: MirrorDb, dbName: string): Promise<TakenEntry[]> {
  const value = (await db._sync_meta.get(takenKey(dbName)))?.value;
  return Array.isArray(value) ? (value as TakenEntry[]) : [];
}

/** Every copy this mirror has taken entries from, with those entries (for the report of stranded copies). */
export async function readAllTaken(db: MirrorDb): Promise<Map<string, TakenEntry[]>> {
  const prefix = takenKey('');
  const rows = await db._sync_meta.where(':id').startsWith(prefix).toArray();
  return new Map(rows.filter((r) => Array.isArray(r.value)).map((r) => [r.key.slice(prefix.length), r.value as TakenEntry[]]));
}

/** Writes the entries taken from `dbName` (none: the row goes). Inside a transaction over `_sync_meta`. */
export async function writeTaken(db: MirrorDb, dbName: string, taken: readonly TakenEntry[]): Promise<void> {
  if (taken.length === 0) await db._sync_meta.delete(takenKey(dbName));
  else await db._sync_meta.put({ key: takenKey(dbName), value: [...taken] });
}
