/**
 * A bare Dexie database and a raw IndexedDB connection, for finding out what a page sees when the
 * browser's storage process dies under it (see `lost-storage-process.test.ts`): the errors of the
 * next transaction, Dexie's `isOpen()`, the close events, and whether closing and opening again
 * works in the same page.
 */
import { Dexie, liveQuery } from 'dexie';

/** An error as the probe reports it: name, message, and the names of what it wraps. */
export interface SeenError {
  name: string;
  message: string;
  inner?: SeenError;
}

/** What the probe saw after the kill. */
export interface ProbeReport {
  isOpenBefore: boolean;
  isOpenAfter: boolean;
  /** Dexie's `close` events before the probe's own close. */
  dexieCloseEvents: number;
  /** The raw connection's `close` events. */
  rawCloseEvents: number;
  /** The first Dexie write after the kill: undefined when it succeeded. */
  dexieWrite: SeenError | undefined;
  /** A raw IndexedDB transaction on the connection opened before the kill. */
  rawTransaction: SeenError | undefined;
  /** A second Dexie write, without closing first. */
  dexieWriteAgain: SeenError | undefined;
  /** `db.close()`, `db.open()` and a write: undefined when all worked. */
  reopen: SeenError | undefined;
  rowsAfterReopen: number | undefined;
  /** The counts the live query (subscribed before the kill) answered, in order. */
  liveAnswers: number[];
}

interface Probe {
  db: Dexie;
  raw: IDBDatabase;
  dexieCloseEvents: number;
  rawCloseEvents: number;
  liveAnswers: number[];
}

let probe: Probe | undefined;

function seen(error: unknown): SeenError {
  if (!(error instanceof Error || error instanceof DOMException)) return { name: typeof error, message: String(error) };
  const inner = (error as { inner?: unknown }).inner;
  return { name: error.name, message: error.message, ...(inner ? { inner: seen(inner) } : {}) };
}

async function attempt(work: () => Promise<unknown>): Promise<SeenError | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return seen(error);
  }
}

/** Opens database `name` with Dexie and raw IndexedDB, writes a row, and follows its count with a live query. */
export async function probeOpen(name: string): Promise<void> {
  const db = new Dexie(name);
  db.version(1).stores({ items: 'id' });
  await db.open();
  await db.table('items').put({ id: 'before' });
  const raw = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const state: Probe = { db, raw, dexieCloseEvents: 0, rawCloseEvents: 0, liveAnswers: [] };
  db.on('close', () => state.dexieCloseEvents++);
  raw.onclose = () => state.rawCloseEvents++;
  liveQuery(() => db.table('items').count()).subscribe({ next: (n) => state.liveAnswers.push(n), error: () => state.liveAnswers.push(-1) });
  probe = state;
}

/** After the kill: what the next transactions do, and whether a close and an open bring the database back. */
export async function probeAfterKill(): Promise<ProbeReport> {
  const p = probe!;
  const isOpenBefore = p.db.isOpen();
  const closeEventsBefore = { dexie: p.dexieCloseEvents, raw: p.rawCloseEvents };
  const dexieWrite = await attempt(() => p.db.table('items').put({ id: 'after-1' }));
  const rawTransaction = await attempt(
    () =>
      new Promise<void>((resolve, reject) => {
        const tx = p.raw.transaction('items', 'readwrite');
        tx.objectStore('items').put({ id: 'raw' });
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error ?? new Error('aborted with no error'));
      }),
  );
  const dexieWriteAgain = await attempt(() => p.db.table('items').put({ id: 'after-2' }));
  const isOpenAfter = p.db.isOpen();
  let rowsAfterReopen: number | undefined;
  const reopen = await attempt(async () => {
    p.db.close({ disableAutoOpen: false });
    await p.db.open();
    await p.db.table('items').put({ id: 'after-reopen' });
    rowsAfterReopen = await p.db.table('items').count();
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { isOpenBefore, isOpenAfter, dexieCloseEvents: closeEventsBefore.dexie, rawCloseEvents: closeEventsBefore.raw, dexieWrite, rawTransaction, dexieWriteAgain, reopen, rowsAfterReopen, liveAnswers: p.liveAnswers };
}
