import { META_KEYS } from '../../db/meta-keys.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { CollectionName } from '../../schema/collections.js';
import { inTransaction } from '../../db/in-transaction.js';

/** A collection's list, or the category tree. */
export type ListName = CollectionName | 'categories';

/** The `_sync_meta` key of the collections the server lacks. */
export const UNAVAILABLE_KEY = META_KEYS.unavailableCollections;

/** A collection the server lacks: since when, when it was last asked, and what it answered. */
export interface UnavailableEntry {
  /** When its list was first found missing (local ms). */
  since: number;
  /** When it was last asked (local ms). */
  checkedAt: number;
  /** The server's answer, without secrets. */
  reason: string;
}

/** The collections the server lacks, by name (the `_sync_meta` row's value). */
export type UnavailableCollections = Partial<Record<ListName, UnavailableEntry>>;

/** The collections marked unavailable (none when the row is missing). */
export async function readUnavailable(db: MirrorDb): Promise<UnavailableCollections> {
  return ((await db._sync_meta.get(UNAVAILABLE_KEY))?.value as UnavailableCollections | undefined) ?? {};
}

/** Marks `name` unavailable (keeping when it was first found so), or, with `reason` undefined, available again. */
export async function noteAvailability(db: MirrorDb, name: ListName, reason: string | undefined, now: number): Promise<void> {
  await inTransaction(db, 'rw', db._sync_meta, async (db) => {
    const all = await readUnavailable(db);
    const before = all[name];
    if (reason === undefined && before === undefined) return;
    const next: UnavailableCollections = { ...all };
    if (reason === undefined) delete next[name];
    else next[name] = { since: before?.since ?? now, checkedAt: now, reason };
    await db._sync_meta.put({ key: UNAVAILABLE_KEY, value: next });
  });
}

/** Forgets the marks of `names` (on `resync()`): the next run asks for them again. */
export async function forgetUnavailable(db: MirrorDb, names: readonly ListName[]): Promise<void> {
  await inTransaction(db, 'rw', db._sync_meta, async (db) => {
    const all = await readUnavailable(db);
    if (!names.some((name) => all[name] !== undefined)) return;
    const next: UnavailableCollections = { ...all };
    for (const name of names) delete next[name];
    await db._sync_meta.put({ key: UNAVAILABLE_KEY, value: next });
  });
}

/** A day (ms): how often an unavailable collection is asked again when reconcile sweeps are off. */
const DAY_MS = 86_400_000;

/**
 * True when an unavailable collection is to be asked again: once per reconcile interval (a day
 * when sweeps are off), not on every poll; a run that names the collection asks it at once.
 */
export function recheckDue(entry: UnavailableEntry, now: number, reconcileIntervalMs: number): boolean {
  return now - entry.checkedAt >= (reconcileIntervalMs > 0 ? reconcileIntervalMs : DAY_MS);
}
