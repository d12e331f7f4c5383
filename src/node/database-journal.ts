import { renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import { StorageError } from '../errors/index.js';
import { RecordWriter } from './record-file.js';
import { syncDirectory, writeSnapshot } from './snapshot.js';
import { FORMAT, JOURNAL_MAGIC, type JournalHeader, type JournalOp } from './store-format.js';

/**
 * The journal of one database: every readwrite transaction that commits is appended to the
 * `journal` file as one record and made durable (`fsync`) in the transaction's `complete` event,
 * before Dexie resolves the transaction's promise, so that what an app was told is saved survives
 * a killed process. Synchronous writes keep that order: the event does not end before the record
 * is on disk. A transaction that aborts leaves nothing; one killed mid-write leaves a torn record,
 * which the next restore cuts off.
 *
 * When the journal outgrows both `compactAtBytes` and the snapshot, it is folded into a new
 * snapshot and started afresh.
 */
export class DatabaseJournal {
  readonly #dir: string;
  readonly #name: string;
  readonly #compactAtBytes: number;
  #id: number;
  #writer: RecordWriter | undefined;
  #database: IDBDatabase | undefined;
  #compacting: Promise<void> | undefined;
  /** Size of the last snapshot written or read (bytes): a journal is folded in once it outgrows it. */
  #snapshotBytes: number;
  /** A journal write that failed: the store can no longer promise durability, so writes are refused. */
  #failure: StorageError | undefined;

  /**
   * `journalId` is the journal to append to (restored with the database), or undefined when the
   * next compaction starts one (a new database, or a snapshot whose journal was never begun).
   * `covers` is the id of the journal the current snapshot holds.
   */
  constructor(dir: string, name: string, journalId: number | undefined, covers: number, compactAtBytes: number) {
    this.#dir = dir;
    this.#name = name;
    this.#compactAtBytes = compactAtBytes;
    this.#id = journalId ?? covers;
    this.#snapshotBytes = fileSize(join(dir, 'snapshot'));
    if (journalId !== undefined) this.#writer = new RecordWriter(join(dir, 'journal'), 'a', JOURNAL_MAGIC);
  }

  /** Size of the journal file in bytes (0 before it is begun). */
  get bytes(): number {
    return this.#writer?.bytes ?? 0;
  }

  /**
   * Told when the database has opened (and any schema upgrade ran): a new or upgraded database is
   * snapshot at once, so its schema is on disk before any write; a long journal is folded in.
   */
  async opened(database: IDBDatabase, snapshotVersion: number | undefined): Promise<void> {
    this.#database = database;
    if (this.#writer === undefined || snapshotVersion !== database.version || this.#due(4)) await this.compact();
  }

  /** Folds the journal into a new snapshot and begins the next journal (serialized: one at a time). */
  compact(): Promise<void> {
    const database = this.#database;
    if (!database) return Promise.resolve();
    this.#compacting ??= writeSnapshot(database, this.#dir, this.#id, () => this.#beginJournal(this.#id + 1)).finally(() => {
      this.#snapshotBytes = fileSize(join(this.#dir, 'snapshot'));
      this.#compacting = undefined;
    });
    return this.#compacting;
  }

  /** Closes the journal file. */
  async close(): Promise<void> {
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
          if (mode === 'readwrite') this.#follow(trans, pending);
          return trans;
        },
        table: (name: string): DBCoreTable => {
          const table = down.table(name);
          return {
            ...table,
            mutate: async (request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
              const response = await table.mutate(request);
              pending.get(request.trans)?.push(...opsOf(name, request, response));
              return response;
            },
          };
        },
      }),
    };
  }

  /** Appends the writes of `trans` when it commits, before anyone hears it did. */
  #follow(trans: DBCoreTransaction, pending: WeakMap<DBCoreTransaction, JournalOp[]>): void {
    const ops: JournalOp[] = [];
    pending.set(trans, ops);
    const idb = trans as unknown as IDBTransaction;
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
    if (this.#due(1)) setImmediate(() => void this.compact().catch(() => undefined));
  }

  /**
   * True when the journal is worth folding into a snapshot: past `compactAtBytes` and past the
   * snapshot's own size (divided by `divisor`). A snapshot rewrites every record, so folding only
   * once the journal has grown as large keeps the cost of writing in proportion to what was
   * written, however large the database grows.
   */
  #due(divisor: number): boolean {
    return this.bytes > Math.max(this.#compactAtBytes, this.#snapshotBytes) / divisor;
  }

  /** Starts journal `id` (empty) in place of the current one; runs while no write can commit. */
  #beginJournal(id: number): void {
    const path = join(this.#dir, 'journal');
    const temporary = `${path}.tmp`;
    const writer = new RecordWriter(temporary, 'w', JOURNAL_MAGIC);
    writer.write({ format: FORMAT, db: this.#name, id } satisfies JournalHeader);
    writer.sync();
    renameSync(temporary, path);
    syncDirectory(this.#dir);
    this.#writer?.close();
    this.#writer = writer;
    this.#id = id;
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
      const { type, lower, upper, lowerOpen, upperOpen } = request.range;
      return [{ s: store, t: 'deleteRange', r: { type, lower, upper, lowerOpen: lowerOpen === true, upperOpen: upperOpen === true } }];
    }
  }
}

/** Size of a file in bytes, 0 when it does not exist. */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
