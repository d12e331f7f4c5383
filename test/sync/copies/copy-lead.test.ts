import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { PosCloudError } from '../../../src/errors/index.js';
import { asLeaderOf } from '../../../src/sync/copies/copy-lead.js';
import { defaultEnvironment, leaderLockName, type LockManagerLike, type SyncEnvironment } from '../../../src/sync/coordination/index.js';

/** Web Locks as the API has them for `ifAvailable` requests: one holder per name, `null` to a request that finds it held. */
function namedLocks(): LockManagerLike & { held: Set<string> } {
  const held = new Set<string>();
  return {
    held,
    async request(name, options, callback) {
      if (held.has(name)) {
        if (!options.ifAvailable) throw new Error('this stand-in only answers ifAvailable requests');
        return callback(null);
      }
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}

const dbs: MirrorDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function copy(): MirrorDb {
  const db = new MirrorDb('pos-cloud-mirror:http://old.example/api', { indexedDB: new IDBFactory(), IDBKeyRange });
  dbs.push(db);
  return db;
}

describe('taking the lead of another copy while its edits move', () => {
  it("holds the copy's leader lock for the whole move, and refuses without running it when another holds it", async () => {
    const locks = namedLocks();
    const env: SyncEnvironment = { ...defaultEnvironment(), locks };
    const db = copy();
    let heldDuring = false;
    const open = async () => db;
    expect(await asLeaderOf(db.name, env, open, async () => (heldDuring = locks.held.has(leaderLockName(db.name))))).toBe(true);
    expect(heldDuring).toBe(true);
    expect(locks.held.size).toBe(0);

    let ran = false;
    await locks.request(leaderLockName(db.name), {}, async () => {
      const error = await asLeaderOf(db.name, env, open, async () => (ran = true)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PosCloudError);
      expect((error as Error).message).toContain('another tab, worker or mirror syncs that copy now');
    });
    expect(ran).toBe(false);
    // A move that fails gives the lock back and says why.
    await expect(asLeaderOf(db.name, env, open, () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    expect(locks.held.size).toBe(0);
  });

  it('takes the lease where Web Locks are missing, gives it back after, and refuses while another instance holds one', async () => {
    const env: SyncEnvironment = { ...defaultEnvironment(), locks: undefined };
    const db = copy();
    const open = async () => db;
    await asLeaderOf(db.name, env, open, async () => {
      expect((await db._sync_meta.get('leader'))?.value).toMatchObject({ owner: expect.stringMatching(/^take-over-/) });
    });
    expect(await db._sync_meta.get('leader')).toBeUndefined();
    await db._sync_meta.put({ key: 'leader', value: { owner: 'a running tab', expiresAt: Date.now() + 10_000 } });
    await expect(asLeaderOf(db.name, env, open, async () => undefined)).rejects.toThrow(PosCloudError);
  });
});
