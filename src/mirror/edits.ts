import { Dexie } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import { isConnectionLost } from '../db/connection-lost.js';
import { isDomException } from '../db/error-shape.js';
import { isReopening, reopenDatabase } from '../db/reopen.js';
import { StorageError, ValidationError } from '../errors/index.js';
import type { Id } from '../ids/id.js';
import { isCollectionName, type CollectionName } from '../schema/collections.js';
import { type ConflictChoice, resolveConflict } from '../sync/conflicts/index.js';
import { assertCollection, removeLocal, retryRejected, saveLocal } from '../sync/outbox/index.js';
import { inTransaction } from '../db/in-transaction.js';
import type { MirrorTransaction } from './mirror-transaction.js';
import type { MirrorDatabase } from './typed-rows.js';

/** The longest a `save()` that met a lost connection waits for the database to open again before it rejects (ms). */
export const SETTLE_TIMEOUT_MS = 10_000;

/** The record an edit is for, and whether it creates it. */
interface EditOf {
  id: Id;
  create: boolean;
}

/** Options of {@link createEdits}. */
export interface EditsOptions {
  db: MirrorDb;
  /** The collections the mirror keeps: edits of others would never be pushed. */
  collections: readonly CollectionName[];
  now(): number;
  /** Throws when the mirror is closed (names the call). */
  assertOpen: (what: string) => void;
  /** Told after every change to the outbox: the push follows soon. */
  outboxGrew: () => void;
}

/** The local side of editing: every change lands in the database and the outbox at once, offline too. */
export interface Edits {
  save: (collection: CollectionName, record: object) => Promise<Id>;
  remove: (collection: CollectionName, id: Id) => Promise<void>;
  retryRejected: (ids?: Id[]) => Promise<number>;
  resolveConflict: (key: string, choice: ConflictChoice) => Promise<void>;
  transaction: <T>(collections: readonly CollectionName[], scope: (tx: MirrorTransaction) => Promise<T>) => Promise<T>;
}

/** Creates the mirror's {@link Edits} (see `Mirror.save` and the others for the rules). */
export function createEdits(options: EditsOptions): Edits {
  const { db, collections, assertOpen, outboxGrew } = options;

  /** Refuses an edit of a known collection the mirror leaves out: it would be queued and never pushed. */
  function assertMirrored(collection: unknown, what: string): void {
    // An unknown name is left to the edit's own check, which lists the known ones.
    if (!isCollectionName(collection) || collections.includes(collection)) return;
    const list = collections.join(', ');
    throw new ValidationError(
      `${what}: collection "${collection}" is not mirrored (the option collections gives ${list}): its edits would never be pushed`,
      { issues: [{ path: ['collection'], message: `not among the mirrored collections (option collections): ${list}` }] },
    );
  }

  /**
   * An edit that met a lost connection did not complete: it rejects with a `StorageError` the app
   * can show (and make again), and the database is opened again for the next one. So does one
   * whose transaction failed while the database is being opened again (it died with the
   * connection). Any other error (a record refused, say) is thrown as it is.
   *
   * A create is looked for once the database is open again: the engine may have committed its
   * transaction and lost the connection before saying so. Found, the save resolves with its id (it
   * is stored, with its outbox entry); not found, or not open again within
   * {@link SETTLE_TIMEOUT_MS}, it rejects, and making it again makes one record, not two.
   */
  async function settleLost(what: string, collection: CollectionName, error: unknown, edit: EditOf | undefined): Promise<Id> {
    // Of any realm: a fresh frame's IndexedDB (see `reopen.ts`) throws that frame's DOMExceptions.
    const storageFailure = error instanceof Dexie.DexieError || isDomException(error);
    if (!isConnectionLost(error) && !(storageFailure && isReopening(db))) throw error;
    const reopened = reopenDatabase(db).then(
      () => true,
      () => false,
    );
    if (edit?.create && (await withinSettleTime(reopened))) {
      const stored = await db.collection(collection).get(edit.id).catch(() => undefined);
      if (stored !== undefined) return edit.id;
    }
    const which = edit ? `${collection} ${edit.id}` : collection;
    throw new StorageError(`${what}: the connection to database "${db.name}" was lost before the edit of ${which} was stored; it is being opened again: make the edit again`, {
      path: db.name,
      problem: 'connection-lost',
      cause: error,
      ...(edit ? { id: edit.id } : {}),
    });
  }

  /** Whether `reopened` says open within {@link SETTLE_TIMEOUT_MS} (a save never waits longer on it). */
  function withinSettleTime(reopened: Promise<boolean>): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), SETTLE_TIMEOUT_MS)));
    return Promise.race([reopened, late]).finally(() => clearTimeout(timer));
  }

  return {
    async save(collection, record) {
      assertOpen('save');
      assertMirrored(collection, 'save');
      let edit: EditOf | undefined;
      const onId = (id: Id, create: boolean) => (edit = { id, create });
      const id = await saveLocal(db, collection, record, { now: options.now(), onId }).catch((error: unknown) => settleLost('save', collection, error, edit));
      outboxGrew();
      return id;
    },
    async remove(collection, id) {
      assertOpen('remove');
      assertMirrored(collection, 'remove');
      await removeLocal(db, collection, id, { now: options.now() }).catch((error: unknown) => settleLost('remove', collection, error, { id, create: false }));
      outboxGrew();
    },
    async retryRejected(ids) {
      assertOpen('retryRejected');
      const count = await retryRejected(db, ids);
      if (count > 0) outboxGrew();
      return count;
    },
    async resolveConflict(key, choice) {
      assertOpen('resolveConflict');
      await resolveConflict(db, key, choice);
      outboxGrew();
    },
    async transaction(collections, scope) {
      assertOpen('transaction');
      const given: unknown = collections;
      if (!Array.isArray(given) || given.length === 0) {
        throw new ValidationError('transaction: the collections it edits must be a non-empty array', {
          issues: [{ path: ['collections'], message: 'expected a non-empty array of collection names' }],
        });
      }
      for (const collection of collections) {
        assertCollection(collection, 'transaction');
        assertMirrored(collection, 'transaction');
      }
      const tables = [...new Set(collections)].map((c) => db.collection(c));
      const result = await inTransaction(db, 'rw', [...tables, db._sync_outbox, db._sync_conflicts], (tx) =>
        scope({
          db: tx as unknown as MirrorDatabase,
          save: (collection, record) => {
            assertMirrored(collection, 'save');
            return saveLocal(tx, collection, record, { now: options.now() });
          },
          remove: (collection, id) => {
            assertMirrored(collection, 'remove');
            return removeLocal(tx, collection, id, { now: options.now() });
          },
        }),
      );
      outboxGrew();
      return result;
    },
  };
}
