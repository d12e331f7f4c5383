/**
 * The Web Locks API as far as leader election uses it (replaceable in tests): an exclusive
 * request that waits (cancelled through `signal`), and one with `ifAvailable` whose callback gets
 * `null` at once when another holder has the lock.
 */
export interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal; ifAvailable?: boolean }, callback: (lock: unknown) => Promise<void>): Promise<unknown>;
}

/**
 * The Storage API (`navigator.storage`) as far as the mirror uses it (replaceable in tests): each
 * method may be missing, as engines differ (WebKitGTK has none of them).
 */
export interface StorageManagerLike {
  /** Asks the browser to keep this origin's storage: resolves with whether it will. */
  persist?(): Promise<boolean>;
  /** Whether this origin's storage is kept (not evicted under pressure). */
  persisted?(): Promise<boolean>;
  /** About how many bytes this origin uses, and may use. */
  estimate?(): Promise<{ usage?: number; quota?: number }>;
}

/**
 * The browser globals the sync engine depends on, behind one interface so tests can replace
 * time, connectivity, visibility and locks (STYLE.md: no hard-wired globals).
 */
export interface SyncEnvironment {
  /** The wall clock, in ms since the epoch (`Date.now`). */
  now(): number;
  /** Calls `fn` once after `ms` (`setTimeout`); returns a handle for {@link SyncEnvironment.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer that {@link SyncEnvironment.setTimeout} started. */
  clearTimeout(handle: unknown): void;
  /** False only when the runtime knows it is offline (`navigator.onLine === false`). */
  isOnline(): boolean;
  /** Calls `fn(online)` on `online`/`offline` events; returns an unsubscribe function. */
  onConnectivity(fn: (online: boolean) => void): () => void;
  /** Calls `fn` when the page becomes visible again; returns an unsubscribe function. */
  onVisible(fn: () => void): () => void;
  /** Web Locks, where the runtime has them. */
  locks: LockManagerLike | undefined;
  /** The Storage API (`navigator.storage`), where the runtime has it: persistence, quota and usage. */
  storage: StorageManagerLike | undefined;
}

interface BrowserGlobals {
  navigator?: { onLine?: boolean; locks?: LockManagerLike; storage?: StorageManagerLike };
  addEventListener?(type: string, fn: () => void): void;
  removeEventListener?(type: string, fn: () => void): void;
  document?: { visibilityState?: string; addEventListener?(type: string, fn: () => void): void; removeEventListener?(type: string, fn: () => void): void };
}

/** The environment of the current runtime: browser, worker, Electron renderer or Node. */
export function defaultEnvironment(): SyncEnvironment {
  const g = globalThis as unknown as BrowserGlobals;
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      // In Node a pending poll must not keep the process alive on its own.
      (handle as { unref?: () => void }).unref?.();
      return handle;
    },
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    isOnline: () => g.navigator?.onLine !== false,
    onConnectivity(fn) {
      if (!g.addEventListener || !g.removeEventListener) return () => undefined;
      const on = () => fn(true);
      const off = () => fn(false);
      g.addEventListener('online', on);
      g.addEventListener('offline', off);
      return () => {
        g.removeEventListener?.('online', on);
        g.removeEventListener?.('offline', off);
      };
    },
    onVisible(fn) {
      const doc = g.document;
      if (!doc?.addEventListener) return () => undefined;
      const listener = () => {
        if (doc.visibilityState === 'visible') fn();
      };
      doc.addEventListener('visibilitychange', listener);
      return () => doc.removeEventListener?.('visibilitychange', listener);
    },
    locks: g.navigator?.locks,
    storage: g.navigator?.storage,
  };
}
