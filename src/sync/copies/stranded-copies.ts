import { parseDbName } from '../../db/db-name.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import { readCopyOutbox, type CopyOutbox } from './copy-outbox.js';
import { isTaken, readAllTaken, type TakenEntry } from './taken-entries.js';

/**
 * Another copy of the service's data in the same storage (a database of this library named
 * after another base URL, with the same tenant) that still holds edits the server has not
 * acknowledged. It is what a changed address leaves behind: the default database name follows
 * the base URL, so `http://` to `https://`, a host alias or a proxy in front of the service open
 * a fresh copy, and the edits made in the old one are pushed only by a mirror that opens it again.
 *
 * Push them by opening that copy again (`createMirror({ ..., dbName })`, with the address that
 * works now), or hand them to the current mirror with `mirror.takeOverEdits(dbName)`.
 */
export interface StrandedCopy {
  /** The copy's database name: give it as `dbName` to open it, or to `takeOverEdits`. */
  dbName: string;
  /** The base URL its name was made from (see `defaultDbName`). */
  baseUrl: string;
  /**
   * Its edits not acknowledged by the server: every outbox entry, whether waiting, refused
   * (`rejected`), in conflict (`conflicts`) or sent without an answer (`unconfirmed`). Entries
   * this mirror has already taken over ({@link takenOver}) are not counted.
   */
  pending: number;
  /** Of {@link pending}: edits the server refused, kept with its reason. */
  rejected: number;
  /** Of {@link pending}: edits in conflict with a server change, waiting for a decision. */
  conflicts: number;
  /** Of {@link pending}: edits whose last POST went out and was never answered (it may have landed). */
  unconfirmed: number;
  /** When the oldest of those edits was made (local ms). */
  firstEditAt: number | undefined;
  /** When the latest of those edits was made (local ms). */
  lastEditAt: number | undefined;
  /**
   * Edits this mirror has already taken into its own outbox that are still in the copy: a
   * take-over was cut short before it could remove them there. `takeOverEdits(dbName)` finishes
   * it (nothing is taken twice); until then, do not open that copy to push it.
   */
  takenOver: number;
  /**
   * The copy's schema version (as `MirrorDb` declares them): above this library's, the copy was
   * written by a newer version, which `takeOverEdits` and `createMirror` refuse to open.
   */
  schemaVersion: number;
}

/** What {@link findStrandedCopies} looks in. */
export interface StrandedSearch {
  /** The IndexedDB the mirror's database lives in (a file storage's, in Node). */
  indexedDB: IDBFactory;
  /** The mirror's own database (its name is skipped; its record of entries taken over is read). */
  db: MirrorDb;
  /** The mirror's `tenant` option: copies of another tenant are other accounts' (see `defaultDbName`), not left behind. */
  tenant: string | undefined;
}

/**
 * The other copies in the same IndexedDB whose outbox holds edits (see {@link StrandedCopy}),
 * by name. Only databases with a default name (`pos-cloud-mirror:<base URL>[#tenant]`, see
 * `defaultDbName`) and the mirror's own tenant are looked at: a name the app chose does not
 * change with the address, and another tenant's copy is another account's, which the app opens
 * under its own tenant. Each is read without being written or upgraded (see `readCopyOutbox`);
 * one that cannot be read is left out.
 *
 * Undefined where the runtime cannot list its databases (`indexedDB.databases()` is missing:
 * Firefox before 126); then nothing is known either way.
 */
export async function findStrandedCopies(search: StrandedSearch): Promise<StrandedCopy[] | undefined> {
  const factory = search.indexedDB as IDBFactory & { databases?: () => Promise<IDBDatabaseInfo[]> };
  if (typeof factory.databases !== 'function') return undefined;
  const names = new Map<string, string>();
  for (const { name } of await factory.databases()) {
    const parsed = typeof name === 'string' && name !== search.db.name ? parseDbName(name) : undefined;
    if (parsed && parsed.tenant === search.tenant) names.set(name!, parsed.baseUrl);
  }
  const taken = await readAllTaken(search.db).catch(() => new Map<string, TakenEntry[]>());
  const copies: StrandedCopy[] = [];
  for (const [name, baseUrl] of [...names].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const outbox = await readCopyOutbox(factory, name).catch(() => undefined);
    const copy = outbox && summarize(name, baseUrl, outbox, taken.get(name) ?? []);
    if (copy && copy.pending + copy.takenOver > 0) copies.push(copy);
  }
  return copies;
}

/** A copy's outbox in figures, entries already taken over counted apart. */
function summarize(dbName: string, baseUrl: string, outbox: CopyOutbox, taken: readonly TakenEntry[]): StrandedCopy {
  const copy: StrandedCopy = {
    dbName,
    baseUrl,
    pending: 0,
    rejected: 0,
    conflicts: 0,
    unconfirmed: 0,
    firstEditAt: undefined,
    lastEditAt: undefined,
    takenOver: 0,
    schemaVersion: outbox.version / 10,
  };
  const bySeq = new Map(taken.map((t) => [t.seq, t]));
  for (const entry of outbox.entries) {
    const mark = entry.seq === undefined ? undefined : bySeq.get(entry.seq);
    if (mark && isTaken(entry, mark)) {
      copy.takenOver++;
      continue;
    }
    copy.pending++;
    if (entry.state === 'rejected') copy.rejected++;
    if (entry.state === 'conflict') copy.conflicts++;
    if (entry.sent !== undefined || (entry.seq !== undefined && outbox.inflight.has(entry.seq))) copy.unconfirmed++;
    if (typeof entry.createdAt === 'number') copy.firstEditAt = Math.min(copy.firstEditAt ?? entry.createdAt, entry.createdAt);
    if (typeof entry.updatedAt === 'number') copy.lastEditAt = Math.max(copy.lastEditAt ?? entry.updatedAt, entry.updatedAt);
  }
  return copy;
}
