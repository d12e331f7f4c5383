/**
 * Reads a database as IndexedDB itself holds it, without Dexie and without asking for a version
 * (nothing is upgraded or created): to show that a copy was left exactly as it was.
 */

/** The database's version, its stores and every row of its outbox; undefined when it does not exist. */
export async function rawOutbox(factory: IDBFactory, name: string): Promise<{ version: number; stores: string[]; outbox: unknown[] } | undefined> {
  if (!(await factory.databases()).some((d) => d.name === name)) return undefined;
  const db = await ask(factory.open(name));
  try {
    const stores = [...db.objectStoreNames].sort();
    const outbox = await ask(db.transaction('_sync_outbox').objectStore('_sync_outbox').getAll());
    return { version: db.version, stores, outbox };
  } finally {
    db.close();
  }
}

function ask<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
