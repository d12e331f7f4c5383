import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import { PosCloudError, StorageError } from '../errors/index.js';
import { RecordWriter } from './record-file.js';
import type { RestoredRecords } from './restore.js';
import { chunksOfDatabase, chunksOfRecords, snapshotHeader, syncDirectory, writeSnapshot, type ReplayStart, type SnapshotChunk } from './snapshot.js';
import { JOURNAL_FORMAT, JOURNAL_MAGIC, type JournalHeader, type JournalOp } from './store-format.js';

/** Where a restored database's journal stands (see `RestoredDatabase`). */
export interface JournalStart {
  /** The journal to append to, or undefined when the next one must be begun. */
  journalId: number | undefined;
  /** The id the next journal begun takes. */
  nextJournalId: number;
  /** The records just restored, for a snapshot of them (taken over, and let go once used). */
  records?: RestoredRecords | undefined;
}

/** How long the database must have had no transaction before a fold left from a restart begins (ms). */
const QUIET_MS = 1_000;

/**
 * The journal of one database: every readwrite transaction that commits is appended to the
 * `journal` file as one record and made durable (`fsync`) in the transaction's `complete` event,
 * before Dexie resolves the transaction's promise, so that what an app was told is saved survives
 * a killed process. Synchronous writes keep that order: the event does not end before the record
 * is on disk. A transaction that aborts leaves nothing; one killed mid-write leaves a torn record,
 * which the next restore cuts off.
 *
 * When the journal outgrows both `compactAtBytes` and the snapshot, it is folded into a new
 * snapshot, in the background: writes and queries go on meanwhile (see `writeSnapshot`).
 */
export class DatabaseJournal {
  readonly #dir: string;
  readonly #name: string;
  readonly #keyRange: typeof IDBKeyRange;
  readonly #compactAtBytes: number;
  /** The id of the journal being appended to (when `#writer` is set), or the id of the next one to begin. */
  #id: number;
  #writer: RecordWriter | undefined;
  #database: IDBDatabase | undefined;
  #compacting: Promise<void> | undefined;
  /** Whether the fold under way rests between chunks (see `SnapshotPace`). */
  #background = false;
  #closing = false;
  /** Size of the last snapshot written or read (bytes): the journals are folded in once they outgrow it. */
  #snapshotBytes: number;
  /** Size of the journals kept beside the current one until a snapshot holds them (`journal-<id>`). */
  #olderBytes: number;
  /** A journal write that failed: the store can no longer promise durability, so writes are refused. */
  #failure: StorageError | undefined;
  /** The records just restored, until the database opens. */
  #restored: RestoredRecords | undefined;
  /** The records just restored and where a snapshot of them starts, until that snapshot is taken. */
  #restoredFold: { start: ReplayStart; stores: RestoredRecords['stores'] } | undefined;
  /** Transactions running, and when the last one started or ended: a fold at open waits for a quiet moment. */
  #transactions = 0;
  #lastTransactionAt = 0;

  constructor(dir: string, name: string, keyRange: typeof IDBKeyRange, start: JournalStart, compactAtBytes: number) {
    this.#dir = dir;
    this.#name = name;
    this.#keyRange = keyRange;
    this.#compactAtBytes = compactAtBytes;
    this.#snapshotBytes = fileSize(join(dir, 'snapshot'));
    this.#olderBytes = olderJournalsSize(dir);
    this.#id = start.journalId ?? start.nextJournalId;
    this.#restored = start.records;
    if (start.journalId !== undefined) this.#writer = new RecordWriter(join(dir, 'journal'), 'a', JOURNAL_MAGIC);
  }

  /** Size of the journal appended to, in bytes (0 before it is begun). */
  get bytes(): number {
    return this.#writer?.bytes ?? 0;
  }

  /**
   * Told when the database has opened (and any schema upgrade ran), before any other use of it. A
   * new or upgraded database is snapshot at once, so its schema is on disk before any write; a
   * journal the snapshot holds already is replaced by a new one. A long journal is folded later,
   * once the database has had no transaction for a while (after the first sync, say): a restart
   * never waits for it.
   */
  async opened(database: IDBDatabase, snapshotVersion: number | undefined): Promise<void> {
    this.#database = database;
    const restored = this.#restored;
    this.#restored = undefined;
    if (snapshotVersion !== database.version) {
      await this.compact();
      return;
    }
    if (this.#writer === undefined) this.#beginJournal();
    if (!this.#due(4)) return;
    // The records just restored are the database as of the end of the current journal: a journal
    // begins now, and the snapshot of them taken later starts there, with nothing read back.
    if (restored && restored.journal === this.#id && restored.from === this.bytes) this.#restoredFold = { start: this.#beginJournal(), stores: restored.stores };
    this.#whenQuiet(() => void this.#compact(true).catch(() => undefined));
  }

  /**
   * Folds the journals into a new snapshot (serialized: one at a time), at full speed (a fold
   * running in the background goes on at full speed). Resolves once done, or once given up
   * because the journal is closing.
   */
  compact(): Promise<void> {
    return this.#compact(false);
  }

  /**
   * A fold, in the background (resting between chunks) or not: of the records just restored when
   * they are there to take (see `opened`), else of the database, from a journal begun now.
   */
  #compact(background: boolean): Promise<void> {
    const database = this.#database;
    if (!database) return Promise.resolve();
    if (!background) this.#background = false;
    return this.#serialized(background, () => {
      const restored = this.#restoredFold;
      this.#restoredFold = undefined;
      if (restored) return this.#fold(database, restored.start, chunksOfRecords(restored.stores));
      return this.#fold(database, this.#beginJournal(), chunksOfDatabase(database, this.#keyRange));
    });
  }

  /** Gives up a fold under way and closes the journal file. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#compacting?.catch(() => undefined);
    this.#writer?.close();
    this.#writer = undefined;
  }

  /** The Dexie middleware that records every committed write (innermost: it sees the values as stored). */
  middleware(): Middleware<DBCore> {
    const pending = new WeakMap<DBCoreTransaction, JournalOp[]>();
    return {
      stack: 'dbcore',
      name: 'pos-cloud-mirror:durable-journal',
      level: -1,
      create: (down) => ({
        ...down,
        transaction: (stores, mode, options) => {
          if (mode === 'readwrite' && this.#failure) throw this.#failure;
          const trans = down.transaction(stores, mode, options);
          const events = transactionEvents(trans);
          this.#count(events);
          if (mode === 'readwrite') this.#follow(trans, events, pending);
          return trans;
        },
        table: (name: string): DBCoreTable => {
          const table = down.table(name);
          return {
            ...table,
            // The promise the layer below gave, chained with its own `then`: never a native one
            // (an `async` function). Dexie follows its transaction through the promises of its
            // requests; a native promise in their chain settles where Dexie does not expect it,
            // and the code of the transaction that awaited it runs on outside the transaction.
            // Every write a pull sent after its first table's pieces then went to transactions of
            // its own, and the pull's, left with no request, committed early (`PrematureCommitError`).
            mutate: (request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> =>
              table.mutate(request).then((response) => {
                pending.get(request.trans)?.push(...opsOf(name, request, response));
                return response;
              }),
          };
        },
      }),
    };
  }

  /** Runs `fold` unless one runs already (then resolves with that one), the journal failed or is closing. */
  #serialized(background: boolean, fold: () => Promise<void>): Promise<void> {
    if (this.#failure || this.#closing) return Promise.resolve();
    if (this.#compacting) return this.#compacting;
    this.#background = background;
    this.#compacting = fold().finally(() => {
      this.#snapshotBytes = fileSize(join(this.#dir, 'snapshot'));
      this.#compacting = undefined;
    });
    return this.#compacting;
  }

  /**
   * One fold: a snapshot of `chunks`, whose replay starts at `start` (a journal begun for it);
   * once it is in place, the journals before `start` are of no more use.
   */
  async #fold(database: IDBDatabase, start: ReplayStart, chunks: AsyncIterable<SnapshotChunk>): Promise<void> {
    const pace = { stopped: () => this.#closing, background: () => this.#background };
    if (!(await writeSnapshot(this.#dir, snapshotHeader(database, start.journal, start.from), chunks, pace))) return;
    for (const name of readdirSync(this.#dir)) {
      const id = /^journal-(\d+)$/.exec(name)?.[1];
      if (id !== undefined && Number(id) < start.journal) rmSync(join(this.#dir, name), { force: true });
    }
    this.#olderBytes = olderJournalsSize(this.#dir);
  }

  #compactSoon(): void {
    setImmediate(() => void this.#compact(true).catch(() => undefined));
  }

  /** Runs `then` once no transaction has run for {@link QUIET_MS} (checked on a timer that does not keep the process alive). */
  #whenQuiet(then: () => void): void {
    const check = () => {
      if (this.#closing) return;
      if (this.#transactions === 0 && performance.now() - this.#lastTransactionAt >= QUIET_MS) then();
      else setTimeout(check, QUIET_MS).unref();
    };
    setTimeout(check, QUIET_MS).unref();
  }

  /** Counts `tx` as running until it ends (a fold waits for a quiet moment). */
  #count(tx: TransactionEvents): void {
    this.#transactions++;
    this.#lastTransactionAt = performance.now();
    const ended = () => {
      this.#transactions--;
      this.#lastTransactionAt = performance.now();
    };
    tx.addEventListener('complete', ended);
    tx.addEventListener('abort', ended);
  }

  /** Appends the writes of `trans` when it commits, before anyone hears it did. */
  #follow(trans: DBCoreTransaction, idb: TransactionEvents, pending: WeakMap<DBCoreTransaction, JournalOp[]>): void {
    const ops: JournalOp[] = [];
    pending.set(trans, ops);
    idb.addEventListener('complete', () => {
      pending.delete(trans);
      if (ops.length > 0) this.#append(ops);
    });
    idb.addEventListener('abort', () => pending.delete(trans));
  }

  #append(ops: JournalOp[]): void {
    try {
      if (!this.#writer) throw new Error('the journal is not begun');
      this.#writer.write({ ops });
      this.#writer.sync();
    } catch (error) {
      this.#failure = new StorageError(`cannot write the journal of ${this.#name} in ${this.#dir}: ${(error as Error).message}; later writes are refused`, {
        path: join(this.#dir, 'journal'),
        problem: 'unwritable',
        cause: error,
      });
      return;
    }
    if (this.#due(1)) this.#compactSoon();
  }

  /**
   * True when the journals are worth folding into a snapshot: past `compactAtBytes` and past the
   * snapshot's own size (divided by `divisor`). A snapshot rewrites every record, so folding only
   * once the journals have grown as large keeps the cost of writing in proportion to what was
   * written, however large the database grows.
   */
  #due(divisor: number): boolean {
    return this.bytes + this.#olderBytes > Math.max(this.#compactAtBytes, this.#snapshotBytes) / divisor;
  }

  /**
   * Begins the next journal and appends to it from now on; the current one is kept beside it as
   * `journal-<id>` until a snapshot holds it (a journal the snapshot holds already is removed).
   * Synchronous, so no commit is appended in between. Returns where a snapshot taken from now on
   * starts its replay: the new journal's first record.
   */
  #beginJournal(): ReplayStart {
    const path = join(this.#dir, 'journal');
    const id = this.#writer ? this.#id + 1 : this.#id;
    const temporary = `${path}.tmp`;
    const writer = new RecordWriter(temporary, 'w', JOURNAL_MAGIC);
    writer.write({ format: JOURNAL_FORMAT, db: this.#name, id } satisfies JournalHeader);
    writer.sync();
    if (this.#writer) {
      renameSync(path, join(this.#dir, `journal-${this.#id}`));
      this.#olderBytes += this.#writer.bytes;
    } else rmSync(path, { force: true });
    renameSync(temporary, path);
    syncDirectory(this.#dir);
    this.#writer?.close();
    this.#writer = writer;
    this.#id = id;
    return { journal: id, from: writer.bytes };
  }
}

/** The writes a mutate request made, as the journal keeps them (failed parts of a bulk write left out). */
function opsOf(store: string, request: DBCoreMutateRequest, response: DBCoreMutateResponse): JournalOp[] {
  const failed = (i: number) => response.failures[i] !== undefined;
  switch (request.type) {
    case 'add':
    case 'put': {
      const keys: unknown[] = [];
      const values: unknown[] = [];
      request.values.forEach((value, i) => {
        if (failed(i)) return;
        keys.push(response.results?.[i] ?? request.keys?.[i]);
        values.push(value);
      });
      // Serialized now: what is journaled is the value as it was written, whatever happens to the object later.
      return values.length === 0 ? [] : [{ s: store, t: 'put', k: keys, v: serialize(values) }];
    }
    case 'delete':
      return [{ s: store, t: 'delete', k: request.keys.filter((_, i) => !failed(i)) }];
    case 'deleteRange': {
      const { type, lowerOpen, upperOpen } = request.range;
      const { lower, upper } = request.range as { lower: unknown; upper: unknown };
      return [{ s: store, t: 'deleteRange', r: { type, lower, upper, lowerOpen: lowerOpen === true, upperOpen: upperOpen === true } }];
    }
  }
}

/** Size of the journals of `dir` kept until a snapshot holds them (`journal-<id>`), in bytes. */
function olderJournalsSize(dir: string): number {
  return readdirSync(dir)
    .filter((name) => /^journal-\d+$/.test(name))
    .reduce((total, name) => total + fileSize(join(dir, name)), 0);
}

/** Size of a file in bytes, 0 when it does not exist. */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The events of a transaction the journal follows: when it commits, and when it aborts. */
type TransactionEvents = Pick<IDBTransaction, 'addEventListener'>;

/**
 * The IndexedDB transaction under a Dexie core transaction. Dexie types it as opaque, but the
 * journal's middleware sits right above the IndexedDB core (level -1), where it is the
 * `IDBTransaction` itself; anything else would leave commits unjournaled, so it is refused.
 */
function transactionEvents(trans: DBCoreTransaction): TransactionEvents {
  if ('addEventListener' in trans && typeof trans.addEventListener === 'function') return trans as DBCoreTransaction & TransactionEvents;
  throw new PosCloudError('the durable journal needs the IndexedDB transaction under Dexie (is another middleware below it?)');
}
