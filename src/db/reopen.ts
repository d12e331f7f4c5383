import type { Dexie } from 'dexie';
import { isConnectionLost } from './connection-lost.js';
import { freshFrameIndexedDb } from './fresh-frame.js';

/** Dexie's own record of the IndexedDB it opens with (set from its options at construction). */
interface DexieDeps {
  _deps: { indexedDB: IDBFactory };
}

/** Per database: the reopen under way, and the frame whose IndexedDB it uses now, if any. */
const reopening = new WeakMap<Dexie, Promise<void>>();
const frames = new WeakMap<Dexie, { indexedDB: IDBFactory; release(): void }>();
const watchers = new WeakMap<Dexie, Set<() => void>>();

/**
 * Calls `listener` each time a reopen of `db` starts (see {@link reopenDatabase}): its connection
 * was lost. Dexie's `ready` event says when it is open again. Returns the function that stops it.
 */
export function watchReopening(db: Dexie, listener: () => void): () => void {
  const set = watchers.get(db) ?? new Set();
  watchers.set(db, set.add(listener));
  return () => set.delete(listener);
}

/**
 * Opens `db` again after its connection was lost under it (see {@link isConnectionLost}): closes
 * it (Dexie opens it again on next use) and opens it. Where the page's IndexedDB refuses to open
 * for good (WebKit once the process serving it died), and the database is on the page's own
 * IndexedDB, it is opened on a fresh frame's instead (see `freshFrameIndexedDb`): the same data,
 * without a reload. Calls while one is under way share it. Rejects with the open's error when
 * neither works (the next call tries again).
 */
export function reopenDatabase(db: Dexie): Promise<void> {
  const running = reopening.get(db);
  if (running) return running;
  for (const listener of watchers.get(db) ?? []) listener();
  // Started a microtask later, once it is known: its own close fires Dexie's `close` event, which
  // may ask for a reopen again (see `reopenWhenClosed`) and must find this one.
  const run = Promise.resolve()
    .then(() => reopen(db))
    .finally(() => reopening.delete(db));
  reopening.set(db, run);
  return run;
}

/**
 * True while a reopen of `db` is under way: its connection was lost, and a transaction that fails
 * now (WebKit aborts those under way as its storage process dies, with errors of its choosing)
 * failed for that.
 */
export function isReopening(db: Dexie): boolean {
  return reopening.has(db);
}

/**
 * Opens `db` again as soon as the engine closes its connection under it (the connection's own
 * `close` event, which a script's `close()` never fires: WebKit's storage process died, the site's
 * data was cleared), rather than on its next use: a live query that runs meanwhile finds it open
 * (Dexie ends a live query whose database fails to open). Closes of Dexie's or the mirror's own
 * (a `versionchange`, a quota failure) are left to Dexie's opening on next use. Returns the
 * function that stops it. A reopen that fails is left to the next use (a sync run, an edit).
 */
export function reopenWhenClosed(db: Dexie): () => void {
  let stopped = false;
  const onClosedUnder = () => {
    if (!stopped) void reopenDatabase(db).catch(() => undefined);
  };
  // Called on every open (sticky): each connection gets the listener.
  const onReady = () => db.backendDB().addEventListener('close', onClosedUnder, { once: true });
  db.on('ready', onReady, true);
  return () => {
    stopped = true;
    db.on('ready').unsubscribe(onReady);
  };
}

async function reopen(db: Dexie): Promise<void> {
  db.close({ disableAutoOpen: false });
  try {
    await db.open();
    return;
  } catch (error) {
    if (!isConnectionLost(error) || !onPageIndexedDb(db)) throw error;
  }
  const fresh = freshFrameIndexedDb();
  if (!fresh) return db.open().then(() => undefined);
  frames.get(db)?.release();
  frames.set(db, fresh);
  (db as unknown as DexieDeps)._deps.indexedDB = fresh.indexedDB;
  db.close({ disableAutoOpen: false });
  await db.open();
}

/** True when `db` uses the page's IndexedDB (or a frame's made by {@link reopenDatabase}), not one the app injected. */
function onPageIndexedDb(db: Dexie): boolean {
  const current = (db as unknown as DexieDeps)._deps.indexedDB;
  const page = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  return current === page || current === frames.get(db)?.indexedDB;
}

/** Takes out the frame {@link reopenDatabase} opened `db` on, if any (when the database is closed for good). */
export function releaseReopenFrame(db: Dexie): void {
  frames.get(db)?.release();
  frames.delete(db);
}
