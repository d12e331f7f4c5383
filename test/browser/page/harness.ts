/**
 * What the conformance page holds besides the library: bundled with `src/index.ts` into the page's
 * one script (`globalThis.conformance`), so a reload loads both again as an app's reload would. Test
 * code reaches it from `evaluate` through `window`: the mirror it opened, the status it published,
 * and what its live queries answered, in order.
 */
import { createMirror, type Mirror, type MirrorOptions, type SyncStatus } from '../../../src/index.js';

/** What a test chooses of a page's mirror: the rest is what an app on this origin would pass. */
export interface PageMirrorOptions {
  /** The service's token: given by the test each time, as an app asks for it; never stored by the page. */
  token: string;
  /** Keeps each test's database apart in one browser profile. */
  tenant: string;
  pageLimit?: number;
  pagesPerTransaction?: number;
  pollIntervalMs?: number;
  leaderLeaseMs?: number;
  conflict?: NonNullable<MirrorOptions['conflict']>;
  collections?: NonNullable<MirrorOptions['collections']>;
  reconcileIntervalMs?: number;
  historyWindow?: NonNullable<MirrorOptions['historyWindow']>;
  /** Gives the mirror a clock and POSTs the test moves from `evaluate` (`window.testClock`); the page's own otherwise. */
  testClock?: boolean;
}

/** What a test moves of a mirror opened with `testClock`: how far its clock runs ahead of the page's, and whether its POSTs fail. */
export interface TestClock {
  /** Added to `Date.now()` for the mirror's `environment.now` (ms). */
  offsetMs: number;
  /** Each POST fails as a lost network does (a `TypeError` from `fetch`) before it leaves the page. */
  postsFail: boolean;
}

/** One published status, trimmed to what tests read. */
export interface SeenStatus {
  phase: SyncStatus['phase'];
  leader: boolean;
  pendingPushes: number;
  conflicts: number;
  lastError: SyncStatus['lastError'];
  storage: SyncStatus['storage'];
}

/** The page's state, as `evaluate` code reads it: `(window as unknown as PageWindow)`. */
export interface PageWindow {
  conformance: typeof import('./harness.js') & typeof import('./previous-release.js') & typeof import('./pieces.js') & typeof import('./storage-probe.js') & typeof import('../../../src/index.js');
  /** The mirror {@link openMirror} made. */
  mirror: Mirror;
  /** The clock and POSTs of the mirror {@link openMirror} made with `testClock`. */
  testClock: TestClock;
  /** Every status the mirror published, oldest first. */
  statuses: SeenStatus[];
  /** Every retry the mirror's client made, as `METHOD path: error name`, oldest first. */
  retries: string[];
  /** Every answer of each live query {@link followCounts} started, by name, oldest first. */
  answers: Record<string, Record<string, number>[]>;
  /** What the page found of the features the library may fall back without (see {@link features}). */
  features: Features;
}

/** The base URL of the service: proxied by the app server on the page's own origin. */
export function serviceUrl(): string {
  return new URL('/api/v1', location.href).href;
}

/** Makes the page's mirror (`window.mirror`) and records every status it publishes. */
export function openMirror(options: PageMirrorOptions): Mirror {
  const page = window as unknown as PageWindow;
  const { token, tenant, testClock, ...rest } = options;
  // Kept in this page's own arrays: WebKit runs a reloaded page's callbacks for a moment after the
  // reload began, when `window` already names the new page (which has no such arrays yet).
  const retries: string[] = (page.retries = []);
  const statuses: SeenStatus[] = (page.statuses = []);
  const clock: TestClock = (page.testClock = { offsetMs: 0, postsFail: false });
  const moved: Partial<MirrorOptions> = testClock
    ? {
        environment: { now: () => Date.now() + clock.offsetMs },
        fetch: (input, init) => {
          const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
          return clock.postsFail && method.toUpperCase() === 'POST' ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init);
        },
      }
    : {};
  const mirror = createMirror({
    baseUrl: serviceUrl(),
    token,
    tenant,
    userAgent: 'pos-cloud-mirror conformance (tests@example.com)',
    timeoutMs: 10_000,
    retry: { limit: 3, baseDelayMs: 50, maxDelayMs: 400 },
    onRetry: ({ request, error }) => retries.push(`${request.method} ${request.path.split('?')[0]}: ${error.name}`),
    ...moved,
    ...rest,
  });
  page.mirror = mirror;
  mirror.status.subscribe((s) =>
    statuses.push({ phase: s.phase, leader: s.leader, pendingPushes: s.pendingPushes, conflicts: s.conflicts, lastError: s.lastError, storage: s.storage }),
  );
  return mirror;
}

/**
 * Follows the record count of each of `tables` with one live query of the mirror, keeping every
 * answer under `name` in `window.answers` (what a UI bound to it would have shown, in order).
 */
export function followCounts(name: string, tables: readonly string[]): void {
  const page = window as unknown as PageWindow;
  page.answers ??= {};
  const seen: Record<string, number>[] = (page.answers[name] = []);
  const { mirror } = page;
  mirror
    .live(async () => {
      const counts = await Promise.all(tables.map((t) => mirror.db.table(t).count()));
      return Object.fromEntries(tables.map((t, i) => [t, counts[i]!]));
    })
    .subscribe((answer) => seen.push(answer));
}

/** Which of the features the library falls back without this page has. */
export interface Features {
  webLocks: boolean;
  databasesList: boolean;
  persist: boolean;
  broadcastChannel: boolean;
}

/** The features present in this page (after `features.js` took away those a test asked to go without). */
export function features(): Features {
  return {
    webLocks: typeof navigator.locks?.request === 'function',
    databasesList: typeof indexedDB.databases === 'function',
    persist: typeof navigator.storage?.persist === 'function',
    broadcastChannel: typeof BroadcastChannel === 'function',
  };
}

/**
 * Every row of every object store of every database named, read with IndexedDB itself (not
 * Dexie), as `[database, store, JSON of [key, value]]`: what a person with the browser's storage
 * inspector would see.
 */
export async function dumpDatabases(names: readonly string[]): Promise<[string, string, string][]> {
  const rows: [string, string, string][] = [];
  for (const name of names) {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      for (const store of [...db.objectStoreNames]) {
        const objectStore = db.transaction(store, 'readonly').objectStore(store);
        const read = <T>(request: IDBRequest<T>) =>
          new Promise<T>((resolve, reject) => {
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
        const [keys, values] = await Promise.all([read(objectStore.getAllKeys()), read(objectStore.getAll())]);
        values.forEach((value, i) => rows.push([name, store, JSON.stringify([keys[i], value])]));
      }
    } finally {
      db.close();
    }
  }
  return rows;
}

/**
 * Fills database `name` with about `bytes` of data no engine can compress (random text, in
 * records of 100 kB, each in its own transaction): space taken from the origin's quota, as other
 * data of an app would take it. Resolves with what was written.
 */
export async function fillBallast(name: string, bytes: number): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('ballast');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const chunk = 80_000;
  let written = 0;
  try {
    for (let key = 0; written < bytes; key++) {
      const random = crypto.getRandomValues(new Uint8Array(Math.ceil(Math.min(chunk, bytes - written) * 0.75)));
      const text = btoa(Array.from(random, (byte) => String.fromCharCode(byte)).join(''));
      const full = await new Promise<boolean>((resolve, reject) => {
        const tx = db.transaction('ballast', 'readwrite');
        tx.objectStore('ballast').put(text, key);
        tx.oncomplete = () => resolve(false);
        tx.onabort = () => (bytes === Infinity && tx.error?.name === 'QuotaExceededError' ? resolve(true) : reject(tx.error));
      });
      if (full) break;
      written += text.length;
    }
  } finally {
    db.close();
  }
  return written;
}

/** Deletes database `name` (resolves once it is gone). */
export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}
