import type { OutboxEntry } from '../../db/sync-rows.js';
import { SYNC_TABLES } from '../../db/table-names.js';

/** What a copy's outbox holds, read without writing anything (see {@link readCopyOutbox}). */
export interface CopyOutbox {
  /** The IndexedDB version the copy is at (Dexie's schema version times 10). */
  version: number;
  /** Its outbox entries (every state), as stored. */
  entries: OutboxEntry[];
  /** `seq`s of the entries named by in-flight batch snapshots (a POST whose answer was never handled). */
  inflight: ReadonlySet<number>;
}

/**
 * Reads the outbox of the mirror database `name` in `factory` and closes it again, writing
 * nothing: the database is opened without a version, so a copy at an older or a newer schema
 * stays at its own (no upgrade runs), and the connection gives way at once to another that wants
 * to upgrade it. Undefined when there is no such database (the attempt to open it creates
 * nothing: it is aborted) or when it is not a mirror's (no outbox).
 */
export async function readCopyOutbox(factory: IDBFactory, name: string): Promise<CopyOutbox | undefined> {
  const db = await openExisting(factory, name);
  if (!db) return undefined;
  try {
    const stores = [SYNC_TABLES.outbox, SYNC_TABLES.inflight].filter((store) => db.objectStoreNames.contains(store));
    if (!stores.includes(SYNC_TABLES.outbox)) return undefined;
    const tx = db.transaction(stores, 'readonly');
    const [entries, rows] = await Promise.all([
      request<OutboxEntry[]>(tx.objectStore(SYNC_TABLES.outbox).getAll()),
      stores.includes(SYNC_TABLES.inflight) ? request<{ entries?: { seq?: unknown }[] }[]>(tx.objectStore(SYNC_TABLES.inflight).getAll()) : [],
    ]);
    const inflight = new Set<number>();
    for (const row of rows) for (const entry of row.entries ?? []) if (typeof entry.seq === 'number') inflight.add(entry.seq);
    return { version: db.version, entries, inflight };
  } finally {
    db.close();
  }
}

/**
 * Opens database `name` as it is (no version asked, so no upgrade), or resolves undefined when it
 * does not exist: opening a missing database would create it, so that upgrade is aborted.
 */
export function openExisting(factory: IDBFactory, name: string): Promise<IDBDatabase | undefined> {
  return new Promise((resolve, reject) => {
    let missing = false;
    const open = factory.open(name);
    open.onupgradeneeded = () => {
      missing = true;
      open.transaction?.abort();
    };
    open.onsuccess = () => {
      const db = open.result;
      // Another tab (or mirror) upgrading this copy must not wait for a reader.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    open.onerror = (event) => {
      if (missing) {
        event.preventDefault();
        resolve(undefined);
      } else reject(open.error ?? new Error('opening the database failed'));
    };
  });
}

function request<T>(req: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error ?? new Error('an IndexedDB request failed'));
  });
}
