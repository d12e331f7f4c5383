import { Dexie } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import { isConnectionLost } from '../db/connection-lost.js';
import { isReopening, reopenDatabase } from '../db/reopen.js';
import { StorageError, ValidationError } from '../errors/index.js';
import type { Id } from '../ids/id.js';
import { isCollectionName, type CollectionName } from '../schema/collections.js';
import { type ConflictChoice, resolveConflict } from '../sync/conflicts/index.js';
import { assertCollection, removeLocal, retryRejected, saveLocal } from '../sync/outbox/index.js';
import { inTransaction } from '../db/in-transaction.js';
import type { MirrorTransaction } from './mirror-transaction.js';
import type { MirrorDatabase } from './typed-rows.js';

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
   */
  function lostConnection(what: string, collection: CollectionName, error: unknown): never {
    const storageFailure = error instanceof Dexie.DexieError || error instanceof DOMException;
    if (!isConnectionLost(error) && !(storageFailure && isReopening(db))) throw error;
    void reopenDatabase(db).catch(() => undefined);
    throw new StorageError(`${what}: the connection to database "${db.name}" was lost before the edit of ${collection} was stored; it is being opened again: make the edit again`, {
      path: db.name,
      problem: 'connection-lost',
      cause: error,
    });
  }

  return {
    async save(collection, record) {
      assertOpen('save');
      assertMirrored(collection, 'save');
      const id = await saveLocal(db, collection, record, { now: options.now() }).catch((error: unknown) => lostConnection('save', collection, error));
      outboxGrew();
      return id;
    },
    async remove(collection, id) {
      assertOpen('remove');
      assertMirrored(collection, 'remove');
      await removeLocal(db, collection, id, { now: options.now() }).catch((error: unknown) => lostConnection('remove', collection, error));
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
