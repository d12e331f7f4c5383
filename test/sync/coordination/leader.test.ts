import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { defaultEnvironment, type LockManagerLike, type SyncEnvironment } from '../../../src/sync/coordination/environment.js';
import { createLeaderElector, type LeaderElector } from '../../../src/sync/coordination/leader.js';

/** An exclusive Web Locks stand-in: one holder, a queue, `ifAvailable` and `signal` as the API has them. */
function fakeLocks(): LockManagerLike {
  let held = false;
  const queue: (() => void)[] = [];
  const next = () => {
    held = false;
    queue.shift()?.();
  };
  return {
    request(_name, options, callback) {
      return new Promise((resolve, reject) => {
        const grant = () => {
          held = true;
          callback({}).then(
            (value) => {
              next();
              resolve(value);
            },
            (error: unknown) => {
              next();
              reject(error);
            },
          );
        };
        if (!held) grant();
        else if (options.ifAvailable) callback(null).then(resolve, reject);
        else {
          queue.push(grant);
          options.signal?.addEventListener('abort', () => {
            const at = queue.indexOf(grant);
            if (at >= 0) queue.splice(at, 1);
            reject(new DOMException('aborted', 'AbortError'));
          });
        }
      });
    },
  };
}

const made: { elector: LeaderElector; db: MirrorDb }[] = [];
afterEach(async () => {
  for (const { elector, db } of made.splice(0)) {
    await elector.stop();
    db.close();
  }
});

/** An elector on a database of `factory` (shared by the electors of one test), with its outcomes and whether it leads by the latest. */
function elector(factory: IDBFactory, env: Partial<SyncEnvironment> = {}) {
  const db = new MirrorDb('leader-test', { indexedDB: factory, IDBKeyRange });
  const outcomes: boolean[] = [];
  const e = createLeaderElector({ db, name: 'leader-test', env: { ...defaultEnvironment(), locks: undefined, ...env }, leaseMs: 300, onOutcome: (l) => outcomes.push(l) });
  made.push({ elector: e, db });
  return {
    elector: e,
    db,
    /** The outcomes as its owner sees them: each change of who leads (a repeated outcome changes nothing). */
    changes: () => outcomes.filter((o, i) => o !== (i === 0 ? false : outcomes[i - 1])),
    leads: () => outcomes.at(-1) === true,
  };
}

/** Two electors on one database, started one after the other: the first leads, the second follows. */
async function leaderThenFollower(env: Partial<SyncEnvironment>) {
  const factory = new IDBFactory();
  const a = elector(factory, env);
  const b = elector(factory, env);
  a.elector.start();
  await a.elector.decided();
  expect(a.leads()).toBe(true);
  b.elector.start();
  await b.elector.decided();
  expect(b.leads()).toBe(false);
  return { a, b };
}

describe('createLeaderElector with the lease (no Web Locks)', () => {
  it('is decided after its first campaign: the first instance leads, the second follows', async () => {
    const { b } = await leaderThenFollower({});
    expect(b.changes()).toEqual([]);
  });

  it('confirm() renews the lease, and steps down at once when another instance holds it', async () => {
    const factory = new IDBFactory();
    const a = elector(factory);
    a.elector.start();
    await a.elector.decided();
    expect(await a.elector.confirm()).toBe(true);
    const lease = (await a.db._sync_meta.get('leader'))!.value as { expiresAt: number };
    expect(lease.expiresAt).toBeGreaterThan(Date.now() + 200);
    await a.db._sync_meta.put({ key: 'leader', value: { owner: 'another-tab', expiresAt: Date.now() + 60_000 } });
    expect(await a.elector.confirm()).toBe(false);
    expect(a.leads()).toBe(false);
    expect(a.changes()).toEqual([true, false]);
  });

  it('leaves no campaign of an earlier start() behind after stop() and start() at once', async () => {
    const factory = new IDBFactory();
    // The renewal timers waiting now, the most that ever waited at once, and how many have fired.
    const waiting = new Set<unknown>();
    let most = 0;
    let fired = 0;
    const a = elector(factory, {
      setTimeout: (fn, ms) => {
        const handle = setTimeout(() => {
          waiting.delete(handle);
          fired++;
          fn();
        }, ms);
        waiting.add(handle);
        most = Math.max(most, waiting.size);
        return handle;
      },
      clearTimeout: (handle) => {
        clearTimeout(handle as ReturnType<typeof setTimeout>);
        waiting.delete(handle);
      },
    });
    a.elector.start();
    void a.elector.stop();
    a.elector.start();
    await a.elector.decided();
    // Five renewals later: a campaign left behind would have set its timers beside these by then.
    await vi.waitFor(() => expect(fired).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
    expect(a.leads()).toBe(true);
    expect(a.changes()).toEqual([true]);
    // One campaign has one renewal waiting at a time; two would have two.
    expect(most).toBe(1);
  });
});

describe('createLeaderElector with Web Locks', () => {
  it('knows at once that another instance holds the lock, and takes over when it stops', async () => {
    const { a, b } = await leaderThenFollower({ locks: fakeLocks() });
    expect(await b.elector.confirm()).toBe(false);
    expect(await a.elector.confirm()).toBe(true);
    await a.elector.stop();
    await new Promise((r) => setTimeout(r, 0));
    expect(b.leads()).toBe(true);
    expect(b.changes()).toEqual([true]);
  });
});
