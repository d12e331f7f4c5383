/**
 * Page code: the first sync of an app started again on a synced mirror (the database a first sync
 * kept): a delta of every collection that finds nothing new, timed with its requests. Also what
 * the origin's storage holds then (`navigator.storage.estimate()`).
 */
import { createMirror } from '../../../src/mirror/create-mirror.js';

/** What the measurement is given. */
export interface IdleDeltaArgs {
  /** The API's base URL, as the page reaches it. */
  base: string;
  token: string;
  /** The database a first sync kept (left in place for what is measured next). */
  dbName: string;
}

/** The idle delta's figures. */
export interface IdleDeltaResult {
  ms: number;
  requests: number;
  /** Records the delta pulled (none, when the server did not change). */
  pulled: number;
  /** `navigator.storage.estimate().usage` (bytes), where the engine has it. */
  storageUsage: number | null;
}

/** Opens a mirror on the kept database and times its first sync. */
export async function idleDelta(args: IdleDeltaArgs): Promise<IdleDeltaResult> {
  let requests = 0;
  const counting: typeof fetch = (input, init) => {
    requests++;
    return fetch(input, init);
  };
  const mirror = createMirror({ baseUrl: args.base, token: args.token, userAgent: 'pos-cloud-mirror browser bench', dbName: args.dbName, categories: false, reconcileIntervalMs: 0, fetch: counting });
  try {
    const started = performance.now();
    const report = await mirror.syncNow();
    const ms = performance.now() - started;
    const pulled = report.pulls.reduce((n, p) => n + p.received, 0);
    const estimate = typeof navigator.storage?.estimate === 'function' ? await navigator.storage.estimate() : undefined;
    return { ms, requests, pulled, storageUsage: estimate?.usage ?? null };
  } finally {
    await mirror.close();
  }
}
