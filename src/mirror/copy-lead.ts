import type { MirrorDb } from '../db/mirror-db.js';
import { PosCloudError } from '../errors/index.js';
import { giveBackLease, tryLease, type SyncEnvironment } from '../sync/coordination/index.js';

/** The name of the Web Lock the leader of database `dbName` holds (one syncing tab or worker per database). */
export function leaderLockName(dbName: string): string {
  return `pos-cloud-mirror-leader:${dbName}`;
}

/** How long the lease of a copy is taken for while its edits move (ms): longer than any move takes. */
const MOVE_LEASE_MS = 60_000;

/**
 * Opens another copy (`open`) and runs `work` on it as that copy's leader, so that no tab,
 * worker or mirror syncs the copy while its edits move: one that pushed them meanwhile would
 * push them a second time. With Web Locks the copy's leader lock is taken (without waiting)
 * before the copy is opened; where they are missing, its lease, once it is open. A copy another
 * instance leads now is refused with a `PosCloudError` saying so.
 */
export async function asLeaderOf<T>(dbName: string, env: SyncEnvironment, open: () => Promise<MirrorDb>, work: (db: MirrorDb) => Promise<T>): Promise<T> {
  const busy = () => new PosCloudError(`takeOverEdits ${JSON.stringify(dbName)}: another tab, worker or mirror syncs that copy now; close it (or wait for it to stop) and try again`);
  if (env.locks) {
    let result: { value: T } | { error: unknown } | undefined;
    await env.locks.request(leaderLockName(dbName), { ifAvailable: true }, async (lock) => {
      if (lock === null) return;
      try {
        result = { value: await work(await open()) };
      } catch (error) {
        result = { error };
      }
    });
    if (!result) throw busy();
    if ('error' in result) throw result.error;
    return result.value;
  }
  const db = await open();
  const owner = `take-over-${env.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  if (!(await tryLease(db, owner, env.now(), MOVE_LEASE_MS))) throw busy();
  try {
    return await work(db);
  } finally {
    await giveBackLease(db, owner);
  }
}
