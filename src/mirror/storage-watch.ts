import type { StorageManagerLike, SyncEnvironment } from '../sync/coordination/index.js';
import type { StorageQuota, SyncStatus } from './status.js';

/** The least time between two reads of the Storage API the mirror makes on its own (ms): they are not free. */
export const STORAGE_READ_INTERVAL_MS = 60_000;

/** Options of {@link createStorageWatch}. */
export interface StorageWatchOptions {
  /** Time, timers and the Storage API (`env.storage`). */
  env: SyncEnvironment;
  /** The mirror keeps its data in a durable store of its own (a file store in Node): persisted, with no quota to read. */
  durable: boolean;
  /** Lays a patch on the status. */
  set: (patch: Pick<Partial<SyncStatus>, 'persisted' | 'quota'>) => void;
}

/** Keeps `status.persisted` and `status.quota` current. Informational: nothing it meets fails sync or throws. */
export interface StorageWatch {
  /** `start()` was called: asks to keep the storage where it is not kept yet, then reads (at most once a minute). */
  started(): void;
  /**
   * A run has ended: reads again, at most once a minute (later, when the last read is too recent),
   * except after the first run, which is read at once: a first sync is what fills the storage.
   */
  ranOnce(): void;
  /** `mirror.persist()`: asks the browser to keep the storage, reads again, and resolves with whether it is kept. */
  persist(): Promise<boolean>;
  /** No read after this; a later read waiting is cancelled. */
  close(): void;
}

/**
 * Creates a {@link StorageWatch}. A read on its own (start, after a run) comes at most once per
 * {@link STORAGE_READ_INTERVAL_MS}: one asked sooner is made when that time is up, once. A method
 * the runtime lacks leaves its field `undefined`; one that fails leaves it as it was.
 */
export function createStorageWatch(options: StorageWatchOptions): StorageWatch {
  const { env, durable, set } = options;
  const storage: StorageManagerLike | undefined = env.storage;
  let closed = false;
  let lastRead: number | undefined;
  let later: unknown;
  let readAfterRun = false;

  const publish = (patch: Pick<Partial<SyncStatus>, 'persisted' | 'quota'>) => {
    if (closed) return;
    try {
      set(patch);
    } catch {
      // A status observer's failure is not the storage's.
    }
  };

  async function read(ask: boolean): Promise<boolean | undefined> {
    lastRead = env.now();
    const persisted = await attempt(() => storage?.persisted?.());
    const estimate = await attempt(() => storage?.estimate?.());
    const quota = quotaOf(estimate, env.now());
    publish({ ...(persisted === undefined ? {} : { persisted }), ...(quota === undefined ? {} : { quota }) });
    // Asked, not awaited: Firefox asks the user, and the answer may never come (a tablet left alone,
    // a browser under automation). The reading above is published whatever it says.
    if (ask && persisted === false && storage?.persist) {
      void attempt(() => storage.persist?.()).then((granted) => {
        if (granted === true) publish({ persisted: true });
      });
    }
    return persisted;
  }

  /** A read on its own: now, or when a minute has passed since the last one (a single read waits); `now` reads at once. */
  function readSoon(ask: boolean, now = false): void {
    if (closed || durable || !storage || (later !== undefined && !now)) return;
    const wait = lastRead === undefined || now ? 0 : lastRead + STORAGE_READ_INTERVAL_MS - env.now();
    if (wait <= 0) return void read(ask);
    later = env.setTimeout(() => {
      later = undefined;
      if (!closed) void read(ask);
    }, wait);
  }

  if (durable) publish({ persisted: true });

  return {
    started: () => readSoon(true),
    ranOnce() {
      readSoon(false, !readAfterRun);
      readAfterRun = true;
    },
    async persist() {
      if (durable) return true;
      if (!storage?.persist) return false;
      const granted = (await attempt(() => storage.persist?.())) ?? false;
      // What the browser keeps from now on, as it says it: `persisted()` where it answers.
      return (await read(false)) ?? granted;
    },
    close() {
      closed = true;
      if (later !== undefined) env.clearTimeout(later);
      later = undefined;
    },
  };
}

/** The method's answer, or `undefined` when it is missing, throws or rejects. */
async function attempt<T>(call: () => Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await call();
  } catch {
    return undefined;
  }
}

/** The estimate as the status shows it, when it names both figures. */
function quotaOf(estimate: { usage?: number; quota?: number } | undefined, at: number): StorageQuota | undefined {
  const usage = estimate?.usage;
  const quota = estimate?.quota;
  if (typeof usage !== 'number' || typeof quota !== 'number' || !Number.isFinite(usage) || !Number.isFinite(quota)) return undefined;
  return { usage, quota, at };
}
