import type { MirrorDb } from '../../db/mirror-db.js';
import { StorageError, ValidationError } from '../../errors/index.js';
import type { CollectionName } from '../../schema/collections.js';
import type { SyncEnvironment } from '../coordination/index.js';
import { asLeaderOf } from './copy-lead.js';
import { readCopyOutbox } from './copy-outbox.js';
import { assertSameTenant, tenantsOf, tenantsOfCopy } from './copy-tenant.js';
import { indexedDbOf, mirrorDatabase, type MirrorDatabaseOptions } from '../../db/mirror-database.js';
import { announceOutboxGrew } from '../outbox/index.js';
import { findStrandedCopies, type StrandedCopy } from './stranded-copies.js';
import { takeOverEdits, type TakeOverReport } from './take-over-edits.js';

/** What {@link createStrandedControl} works with. */
export interface StrandedControlOptions {
  /** The mirror's database. */
  db: MirrorDb;
  /** The mirror's options: where its database lives (`storage`, `indexedDB`), its extra indexes and its tenant, for the other copies. */
  options: MirrorDatabaseOptions & { tenant?: string | undefined };
  env: SyncEnvironment;
  /** The collections the mirror mirrors. */
  collections: readonly CollectionName[];
  /** Lays the list found on the status. */
  setStatus(patch: { stranded: StrandedCopy[] | undefined }): void;
  /** Throws when the mirror is closed, naming the call. */
  assertOpen(what: string): void;
  /** Runs a take-over in the sync controller's queue, between runs (see `SyncController.inQueue`); `caller` aborts the wait. */
  inQueue<T>(work: () => Promise<T>, caller?: AbortSignal): Promise<T>;
}

/** The mirror's view of other copies in its storage: finding those that hold edits, and taking their edits over. */
export interface StrandedControl {
  /** Looks for copies holding edits (see `findStrandedCopies`) and puts the list on `status.stranded`. */
  find(): Promise<StrandedCopy[] | undefined>;
  /** Moves the edits of copy `dbName` into this mirror's outbox (see `takeOverEdits`), then looks again; `signal` ends it between steps. */
  takeOver(dbName: string, signal?: AbortSignal): Promise<TakeOverReport>;
  /** Closes the copies opened by take-overs (after the controller's queue has drained, before the mirror's storage closes). */
  close(): Promise<void>;
}

/** Creates the {@link StrandedControl} of one mirror. */
export function createStrandedControl(o: StrandedControlOptions): StrandedControl {
  // The same IndexedDB the mirror's database is in.
  const factory = indexedDbOf(o.options).indexedDB;
  // A copy is opened once per mirror, and stays open until it closes: a durable storage journals
  // a database it was given once (see `MirrorStorage.attach`).
  const opened = new Map<string, MirrorDb>();
  let closed = false;

  async function find(): Promise<StrandedCopy[] | undefined> {
    o.assertOpen('findStranded');
    const copies = await findStrandedCopies({ indexedDB: factory, db: o.db, tenant: o.options.tenant });
    if (!closed) o.setStatus({ stranded: copies });
    return copies;
  }

  async function takeOver(dbName: string, signal?: AbortSignal): Promise<TakeOverReport> {
    o.assertOpen('takeOverEdits');
    signal?.throwIfAborted();
    if (typeof dbName !== 'string' || dbName === '' || dbName === o.db.name) {
      const message = dbName === o.db.name ? "is this mirror's own database" : 'must be the name of another copy (a `dbName` of `status.stranded`)';
      throw new ValidationError(`takeOverEdits: the copy ${JSON.stringify(dbName)} ${message}`, { issues: [{ path: ['dbName'], message }] });
    }
    // In the controller's queue: one take-over at a time (each reads what the one before left), and
    // no push reads this outbox while the copy's edits move into it.
    return o.inQueue(() => takeOverNow(dbName, signal), signal);
  }

  async function takeOverNow(dbName: string, signal: AbortSignal | undefined): Promise<TakeOverReport> {
    signal?.throwIfAborted();
    // Everything that can refuse the copy is checked reading it as it is: a copy refused is left untouched.
    await assertTakeable(dbName);
    signal?.throwIfAborted();
    const report = await asLeaderOf(dbName, o.env, () => openCopy(dbName), (other) =>
      takeOverEdits({ current: o.db, other, collections: o.collections, ...(signal ? { signal } : {}) }),
    );
    if (report.taken > 0) announceOutboxGrew(o.db, o.env.now());
    await find().catch(() => undefined);
    return report;
  }

  /**
   * Refuses a copy that is not there, one written by a newer version of the library (as
   * `createMirror` refuses it), and one of another tenant, reading it without writing it.
   */
  async function assertTakeable(dbName: string): Promise<void> {
    const outbox = await readCopyOutbox(factory, dbName);
    if (!outbox) {
      const message = 'no mirror database of that name in this storage';
      throw new ValidationError(`takeOverEdits: the copy ${JSON.stringify(dbName)}: ${message}`, { issues: [{ path: ['dbName'], message }] });
    }
    if (outbox.version > o.db.verno * 10) {
      throw new StorageError(
        `takeOverEdits: the copy ${JSON.stringify(dbName)} is at schema version ${outbox.version / 10}, written by a newer version of pos-cloud-mirror (this one knows up to ${o.db.verno}); it is left as it is`,
        { path: dbName, problem: 'newer-version' },
      );
    }
    assertSameTenant(await tenantsOf(o.db), await tenantsOfCopy(factory, dbName), dbName);
  }

  /**
   * The copy `dbName` as a mirror database (an older one is upgraded, as opening it would),
   * opened through the mirror's own storage, so that in Node a file storage journals what the
   * take-over writes there.
   */
  async function openCopy(dbName: string): Promise<MirrorDb> {
    let db = opened.get(dbName);
    if (!db) {
      db = mirrorDatabase(dbName, o.options);
      opened.set(dbName, db);
    }
    if (!db.isOpen()) await db.open();
    return db;
  }

  return {
    find,
    takeOver,
    close() {
      closed = true;
      for (const db of opened.values()) db.close();
      opened.clear();
      return Promise.resolve();
    },
  };
}
