/**
 * What the files of a durable store hold. A database lives in its own directory of the data
 * directory: a `snapshot` (the schema and every record) and a `journal` (every transaction
 * committed since the snapshot began, in commit order). Replaying the journal over the snapshot
 * gives the database as the process left it.
 */

/** The magic of a snapshot file. */
export const SNAPSHOT_MAGIC = 'PCMS';
/** The magic of a journal file. */
export const JOURNAL_MAGIC = 'PCMJ';
/**
 * The format of a snapshot this version writes. Format 1 (read, never written) said which journal
 * it held whole (`covers`); format 2 says where in a journal its replay starts (`journal`, `from`),
 * so that a snapshot can be taken while transactions keep committing.
 */
export const SNAPSHOT_FORMAT = 2;
/** The formats of a snapshot this version reads; a file of another format is refused, never rewritten. */
export const SNAPSHOT_FORMATS_READ: readonly number[] = [1, 2];
/** The format of a journal (unchanged since the first version). */
export const JOURNAL_FORMAT = 1;

/** An index of an object store, as IndexedDB describes it. */
export interface IndexSchema {
  name: string;
  keyPath: string | string[];
  unique: boolean;
  multiEntry: boolean;
}

/** An object store, as IndexedDB describes it. */
export interface StoreSchema {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: IndexSchema[];
}

/** The first record of a snapshot. */
export interface SnapshotHeader {
  format: number;
  /** The database's name. */
  db: string;
  /** Its schema version. */
  version: number;
  stores: StoreSchema[];
  /**
   * Format 2: the journal the replay starts in. The snapshot holds every transaction before byte
   * `from` of that journal, and maybe some after it (it is read while transactions commit, which
   * replaying them again puts right); a later journal is replayed whole, an earlier one not at all.
   */
  journal?: number;
  /** Format 2: the byte of journal `journal` the replay starts at. */
  from?: number;
  /** Format 1: the id of the journal whose every transaction the snapshot holds (0: none). */
  covers?: number;
}

/**
 * A record of a snapshot after its header: records of one store, in ascending key order within
 * the store (the stores one after another), or the end (a snapshot without it is damaged).
 */
export type SnapshotRecord = { store: string; keys: unknown[]; values: unknown[] } | { end: true; records: number };

/** The first record of a journal. */
export interface JournalHeader {
  format: number;
  db: string;
  /** Counts up with every snapshot: a snapshot says which journal its replay starts in. */
  id: number;
}

/** A key range of a deletion, as Dexie describes it (`DBCoreKeyRange`). */
export interface JournalRange {
  /** Dexie's range type: 1 equal, 2 range, 3 any (every key), 4 never. */
  type: number;
  lower: unknown;
  upper: unknown;
  lowerOpen: boolean;
  upperOpen: boolean;
}

/** One write of a committed transaction, to store `s` (`v`: the values, V8-serialized as one array). */
export type JournalOp =
  | { s: string; t: 'put'; k: unknown[]; v: Uint8Array }
  | { s: string; t: 'delete'; k: unknown[] }
  | { s: string; t: 'deleteRange'; r: JournalRange };

/** One committed transaction: its writes in order. */
export interface JournalEntry {
  ops: JournalOp[];
}
