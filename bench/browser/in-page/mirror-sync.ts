/**
 * Page code: the mirror's first sync, as an app starts it: `createMirror` on a fresh database, then
 * `syncNow()` of every collection (the categories tree left out, as the baseline has no such page),
 * timed from the mirror's creation to the last page written.
 */
import { Dexie } from 'dexie';
import { createMirror } from '../../../src/mirror/create-mirror.js';
import { COLLECTIONS } from '../../../src/schema/collections.js';
import { startHeartbeat, type HeartbeatReport } from './heartbeat.js';

/** What the sync is given. */
export interface MirrorSyncArgs {
  /** The API's base URL, as the page reaches it. */
  base: string;
  token: string;
  dbName: string;
  /** Stop after this long (ms) and report what was done. */
  limitMs: number;
  /** Keep the database (closed) for what is measured next, unless the sync was bounded; else it is deleted. */
  keep: boolean;
  /** The mirror's `pagesPerTransaction` option, when not its default. */
  pagesPerTransaction?: number;
}

/** One sync. */
export interface MirrorSyncResult {
  ms: number;
  /** Records in the mirror's collections once the sync ended. */
  records: number;
  heartbeat: HeartbeatReport;
  /** The sync hit `limitMs` and was stopped (closing the mirror) before it finished; its database is deleted. */
  bounded: boolean;
}

/** Marks around the sync, which a profile of the whole page can be cut to. */
export const SYNC_MARKS = { start: 'bench:mirror-sync:start', end: 'bench:mirror-sync:end' } as const;

/** Runs a first sync into a fresh database. */
export async function mirrorSync(args: MirrorSyncArgs): Promise<MirrorSyncResult> {
  const heartbeat = startHeartbeat();
  let report: HeartbeatReport | undefined;
  performance.mark(SYNC_MARKS.start);
  const started = performance.now();
  const mirror = createMirror({
    baseUrl: args.base,
    token: args.token,
    userAgent: 'pos-cloud-mirror browser bench',
    dbName: args.dbName,
    categories: false,
    reconcileIntervalMs: 0,
    ...(args.pagesPerTransaction === undefined ? {} : { pagesPerTransaction: args.pagesPerTransaction }),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<'bounded'>((resolve) => (timer = setTimeout(() => resolve('bounded'), args.limitMs)));
  let closed = false;
  const stored = async () => {
    let records = 0;
    for (const collection of COLLECTIONS) records += await mirror.db.table(collection).count();
    return records;
  };
  try {
    const sync = mirror.syncNow().then(() => 'done' as const);
    const outcome = await Promise.race([sync, limit]).catch(async (error: unknown) => {
      // A sync that fails (a full disk, the origin's quota) says how far it got and what the mirror showed.
      const records = await stored();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const name = error instanceof Error ? error.name : 'Error';
      throw new Error(`${name} after ${records} records in ${seconds} s (status ${mirror.status.value.phase}): ${error instanceof Error ? error.message : String(error)}`);
    });
    const ms = performance.now() - started;
    performance.mark(SYNC_MARKS.end);
    report = heartbeat.stop();
    const records = await stored();
    if (outcome === 'bounded') {
      closed = true;
      await mirror.close();
      // The sync stopped by the close rejects; what it did is counted above.
      await sync.catch(() => undefined);
    }
    return { ms, records, heartbeat: report, bounded: outcome === 'bounded' };
  } finally {
    clearTimeout(timer);
    if (!report) heartbeat.stop();
    if (!closed) await mirror.close();
    if (!args.keep || closed) await Dexie.delete(args.dbName);
  }
}
