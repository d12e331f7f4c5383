import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { expectConverged } from './convergence.js';

let sim: Simulator | undefined;
let mirror: Mirror | undefined;
afterEach(async () => {
  await mirror?.close();
  await sim?.close();
  mirror = sim = undefined;
});

/**
 * Found by the soak (`npm run soak -- --seed 2 --minutes 0.4 --devices 3`, which `.ci/run` runs): a device whose pull
 * was interrupted (a failed request, a revoked token, the app closed mid-pull) resumes the
 * traversal at its cursor. Records below the cursor edited meanwhile are not read again, so the
 * push that follows took their old server state for the current one and wrote it back whole.
 */
describe('a push after a pull that resumed an interrupted traversal', () => {
  it("keeps a register's edit made while the device was away, below the traversal's cursor", async () => {
    sim = await createSimulator({ size: 'tiny', seed: 5 });
    const server = sim;
    let failNextCustomersPage = false;
    let customerPages = 0;
    mirror = createMirror({
      baseUrl: sim.baseUrl,
      token: sim.token,
      userAgent: 'pos-cloud-mirror tests (resumed pull)',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      collections: ['customers'],
      categories: false,
      pageLimit: 5,
      retry: 0,
      // The connection drops once, on the second page of a customers traversal: the pull stops after its first page.
      fetch: async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (failNextCustomersPage && url.includes('/customers?') && ++customerPages === 2) {
          failNextCustomersPage = false;
          throw new TypeError('fetch failed');
        }
        return fetch(input, init);
      },
    });
    await mirror.syncNow();
    const ids = server.store.list('customers').map((r) => String(r.id));
    const low = ids[0]!;

    // The device edits the lowest customer offline; the back office changes eleven customers.
    await mirror.save('customers', { id: low, note_internal: 'device' });
    for (const id of ids.slice(0, 11)) server.store.write('customers', { id, tags: 'back office' });
    failNextCustomersPage = true;
    await expect(mirror.syncNow()).rejects.toThrow();
    expect((await mirror.db._sync_checkpoints.get('customers'))?.cursor?.idStart).toBe(ids[4]);

    // While the device is away, the back office edits the same customer again.
    server.store.write('customers', { id: low, firstname: 'Back Office' });
    await mirror.syncNow();

    expect(server.store.get('customers', low)).toMatchObject({ firstname: 'Back Office', note_internal: 'device', tags: 'back office' });
    expect(await mirror.pending()).toEqual([]);
    await expectConverged(mirror.db, server, ['customers']);
  });
});
