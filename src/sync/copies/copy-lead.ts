import type { MirrorDb } from '../../db/mirror-db.js';
import { PosCloudError } from '../../errors/index.js';
import { giveBackLease, leaderLockName, leaseOwnerId, tryLease, type SyncEnvironment } from '../coordination/index.js';

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
  const owner = leaseOwnerId(env.now(), 'take-over-');
  if (!(await tryLease(db, owner, env.now(), MOVE_LEASE_MS))) throw busy();
  try {
    return await work(db);
  } finally {
    await giveBackLease(db, owner);
  }
}
