import { existsSync, readdirSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import { deserialize } from 'node:v8';
import { StorageError } from '../errors/index.js';
import { DuplicateKeyError, loadStores } from './load-stores.js';
import { RecordReader } from './record-file.js';
import { StoreContents, type SortedRecords } from './store-contents.js';
import {
  JOURNAL_FORMAT,
  JOURNAL_MAGIC,
  SNAPSHOT_FORMATS_READ,
  SNAPSHOT_MAGIC,
  type JournalEntry,
  type JournalHeader,
  type SnapshotHeader,
  type SnapshotRecord,
} from './store-format.js';

/** What was restored of one database. */
export interface RestoredDatabase {
  name: string;
  version: number;
  /** The directory of its files. */
  dir: string;
  /** The journal to append to (its id), or undefined when the next journal must be begun (none, or one the snapshot holds already). */
  journalId: number | undefined;
  /** The id a journal begun next takes. */
  nextJournalId: number;
  /** Transactions replayed from the journals. */
  replayed: number;
  /** How the records went in: built in bulk, or one put at a time (a fake-indexeddb that keeps them otherwise). */
  loadedBy: 'bulk' | 'put';
  /**
   * The records as restored, store by store in key order (the very values the database holds,
   * when loaded in bulk), and where in the journal they stand: a snapshot of them can be written
   * without reading the database back. Whoever takes them sets this to undefined, so they are
   * not kept alive for nothing.
   */
  records: RestoredRecords | undefined;
}

/** The records of a restored database, and the place in its journals they stand at (`journal`, byte `from`). */
export interface RestoredRecords {
  stores: Map<string, SortedRecords>;
  journal: number;
  from: number;
}

/**
 * Loads one database's files into `factory` (an in-memory IndexedDB): the snapshot's records,
 * then the transactions of its journals over them, in order. Both are gathered per store first
 * (the last write of each key wins), then each store is loaded at once (see `load-stores.ts`).
 *
 * The journal being appended to is `journal`; older ones (`journal-<id>`) stay until a snapshot
 * holds them. Each journal says its id: the snapshot's replay starts in one of them at a byte
 * offset, journals after it are replayed whole, journals before it not at all. A torn last
 * record of `journal` (a process killed while writing it: its transaction never committed) is
 * cut off the file; any other damage is a `StorageError` (`corrupt`) naming the file, and nothing
 * is written.
 */
export async function restoreDatabase(factory: IDBFactory, dir: string): Promise<RestoredDatabase | undefined> {
  const snapshotPath = join(dir, 'snapshot');
  const journals = journalFiles(dir);
  if (!existsSync(snapshotPath)) {
    if (journals.length > 0) throw corrupt(snapshotPath, 'missing: there is a journal but no snapshot to replay it over');
    return undefined;
  }
  const { header, contents } = readSnapshot(snapshotPath);
  const start = replayStart(header);
  const replay = replayJournals(journals, header, start, contents);
  const sorted = new Map<string, SortedRecords>();
  for (const [name, store] of contents) sorted.set(name, store.sorted());
  contents.clear();
  let loadedBy: 'bulk' | 'put';
  try {
    loadedBy = await loadStores(factory, header, sorted);
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw corrupt(replay.replayed > 0 ? join(dir, 'journal') : snapshotPath, error.message);
    throw error;
  }
  // A torn last record is a transaction that never committed: cut it, so appends follow a whole record.
  if (replay.torn) truncateSync(join(dir, 'journal'), replay.torn.validBytes);
  const current = replay.current;
  // Values loaded one put at a time were copied: holding the originals for a snapshot would double the memory.
  const records = loadedBy === 'bulk' && current ? { stores: sorted, journal: current.id, from: current.bytes } : undefined;
  return { name: header.db, version: header.version, dir, journalId: current?.id, nextJournalId: replay.nextJournalId, replayed: replay.replayed, loadedBy, records };
}

/** The journal files of `dir`: `journal` (appended to) and `journal-<id>` (older, not yet held by a snapshot). */
function journalFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name === 'journal' || /^journal-\d+$/.test(name))
    .map((name) => join(dir, name));
}

function readSnapshot(path: string): { header: SnapshotHeader; contents: Map<string, StoreContents> } {
  const reader = open(path, SNAPSHOT_MAGIC);
  try {
    const header = reader.next() as SnapshotHeader | undefined;
    if (!header || !SNAPSHOT_FORMATS_READ.includes(header.format) || typeof header.db !== 'string' || typeof header.version !== 'number' || !Array.isArray(header.stores)) {
      throw corrupt(path, `its header is not a snapshot of format ${SNAPSHOT_FORMATS_READ.join(' or ')}`);
    }
    const contents = new Map(header.stores.map((store) => [store.name, new StoreContents(store)]));
    let records = 0;
    for (let record = reader.next() as SnapshotRecord | undefined; ; record = reader.next() as SnapshotRecord | undefined) {
      if (record === undefined) throw corrupt(path, reader.end === 'complete' ? 'it ends before its last record' : `it is ${reader.end} at byte ${reader.validBytes}`);
      if ('end' in record) {
        if (record.records !== records) throw corrupt(path, `it holds ${records} records where its end says ${record.records}`);
        return { header, contents };
      }
      const store = contents.get(record.store);
      if (!store) throw corrupt(path, `it holds records of ${record.store}, a store its header does not have`);
      if (!store.addSnapshotRecords(record.keys, record.values)) throw corrupt(path, `the records of ${record.store} before byte ${reader.validBytes + 1} are out of key order`);
      records += record.values.length;
    }
  } finally {
    reader.close();
  }
}

/** Where a snapshot's replay starts: in journal `journal` at byte `from` (0: its first record). */
interface ReplayStart {
  journal: number;
  from: number;
}

function replayStart(header: SnapshotHeader): ReplayStart {
  // Format 1 held its journal `covers` whole: replay starts at the journal after it.
  if (header.format === 1) return { journal: (header.covers ?? 0) + 1, from: 0 };
  return { journal: header.journal ?? 0, from: header.from ?? 0 };
}

interface JournalsReplay {
  /** The journal to append to (`journal`, unless the snapshot holds it already) and its size once a torn end is cut. */
  current: { id: number; bytes: number } | undefined;
  nextJournalId: number;
  replayed: number;
  /** Set when the last record of `journal` is torn: where its whole records end. */
  torn: { validBytes: number } | undefined;
}

/** Replays the journals the snapshot does not hold into `contents`, oldest first. */
function replayJournals(paths: readonly string[], snapshot: SnapshotHeader, start: ReplayStart, contents: Map<string, StoreContents>): JournalsReplay {
  const journals = paths.map((path) => ({ path, ...readJournalHeader(path, snapshot) })).sort((a, b) => a.id - b.id);
  const out: JournalsReplay = { current: undefined, nextJournalId: start.journal, replayed: 0, torn: undefined };
  for (const [i, journal] of journals.entries()) {
    if (i > 0 && journal.id === journals[i - 1]!.id) throw corrupt(journal.path, `it has id ${journal.id}, as ${journals[i - 1]!.path} has`);
    out.nextJournalId = Math.max(out.nextJournalId, journal.id + 1);
    const appended = basename(journal.path) === 'journal';
    // A journal before the one the snapshot starts in is held by the snapshot: neither replayed nor appended to.
    if (journal.id < start.journal) continue;
    const end = replayJournal(journal.path, journal.id === start.journal ? start.from : 0, contents);
    out.replayed += end.replayed;
    if (end.torn && !appended) throw corrupt(journal.path, `its last record is cut short, in a journal no longer appended to`);
    if (end.torn) out.torn = { validBytes: end.validBytes };
    if (appended && i !== journals.length - 1) throw corrupt(journal.path, `it is appended to, yet ${journals[journals.length - 1]!.path} is newer`);
    if (appended) out.current = { id: journal.id, bytes: end.validBytes };
  }
  return out;
}

function readJournalHeader(path: string, snapshot: SnapshotHeader): { id: number } {
  const reader = open(path, JOURNAL_MAGIC);
  try {
    const header = reader.next() as JournalHeader | undefined;
    if (!header || header.format !== JOURNAL_FORMAT || header.db !== snapshot.db || typeof header.id !== 'number') {
      throw corrupt(path, `its header is not a journal of ${snapshot.db} in format ${JOURNAL_FORMAT}`);
    }
    return { id: header.id };
  } finally {
    reader.close();
  }
}

/** Replays one journal from byte `from` (0: its first record) into `contents`. */
function replayJournal(path: string, from: number, contents: Map<string, StoreContents>): { replayed: number; torn: boolean; validBytes: number } {
  const reader = open(path, JOURNAL_MAGIC);
  try {
    reader.next();
    if (from > reader.validBytes && !reader.skipTo(from)) throw corrupt(path, `no record starts at byte ${from}, where the snapshot says its replay starts`);
    let replayed = 0;
    for (let entry = reader.next() as JournalEntry | undefined; entry !== undefined; entry = reader.next() as JournalEntry | undefined) {
      for (const op of entry.ops) {
        const store = contents.get(op.s);
        if (!store) throw corrupt(path, `a transaction before byte ${reader.validBytes + 1} writes to ${op.s}, a store the snapshot does not have`);
        if (op.t === 'put') store.put(op.k, deserialize(op.v) as unknown[]);
        else if (op.t === 'delete') store.delete(op.k);
        else store.deleteRange(op.r);
      }
      replayed++;
    }
    if (reader.end === 'corrupt') throw corrupt(path, `a record before byte ${reader.validBytes + 1} is damaged and more follow it`);
    return { replayed, torn: reader.end === 'torn', validBytes: reader.validBytes };
  } finally {
    reader.close();
  }
}

function open(path: string, magic: string): RecordReader {
  try {
    return new RecordReader(path, magic);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') {
      throw new StorageError(`cannot read ${path}: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
    }
    throw corrupt(path, (error as Error).message);
  }
}

function corrupt(path: string, what: string): StorageError {
  return new StorageError(`the durable store file ${path} is damaged: ${what}. It is left as it is; move the data directory aside to start afresh.`, {
    path,
    problem: 'corrupt',
  });
}
