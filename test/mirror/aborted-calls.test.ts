import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDbName } from '../../src/db/db-name.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { addressMirrors } from './address-mirrors.js';
import { expectConverged } from './convergence.js';
import { clientThrough, isGet, startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';
import { rawOutbox } from './raw-database.js';

let fixture: MirrorFixture | undefined;
let sim: Simulator | undefined;
const mirrors = addressMirrors();
afterEach(async () => {
  await mirrors.closeAll();
  await fixture?.close();
  await sim?.close();
  fixture = sim = undefined;
});

/** Resolves when `signal` aborts, as a real request's wait for the network ends. */
const abortOf = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

/**
 * A client whose GETs of customers' pages after the first `free` wait until the test lets them go
 * (or their request is aborted, as a real fetch's is); `waiting` resolves when one waits.
 */
function heldCustomerPages(f: MirrorFixture, free: number) {
  let pages = 0;
  let hold = true;
  let reached: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (reached = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const client = clientThrough(f.sim, async (request) => {
    if (!hold || !isGet(request, 'customers') || ++pages <= free) return;
    reached();
    await Promise.race([released, abortOf(request.signal)]);
  });
  return {
    client,
    waiting,
    letGo() {
      hold = false;
      release();
    },
  };
}

const isAbortError = (error: unknown) => error instanceof Error && error.name === 'AbortError';

describe('a signal given to syncNow, resync, reconcile and takeOverEdits', () => {
  it('refuses at once when it is already aborted, asking the server nothing', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers'], categories: false });
    const before = fixture.sim.requests.recent().length;
    const signal = AbortSignal.abort();
    for (const call of [
      () => mirror.syncNow({ signal }),
      () => mirror.resync({ signal }),
      () => mirror.reconcile({ signal }),
      () => mirror.takeOverEdits('another-copy', { signal }),
    ]) {
      await expect(call()).rejects.toSatisfy(isAbortError);
    }
    // The app's own reason comes back as it was given.
    const reason = new Error('the user went back');
    await expect(mirror.syncNow({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(fixture.sim.requests.recent().length).toBe(before);
    expect(await mirror.db.customers.count()).toBe(0);
  });

  it('ends a first sync mid-traversal, keeps the pages written, and a later sync completes from there', async () => {
    fixture = await startMirrorFixture();
    const held = heldCustomerPages(fixture, 2);
    const mirror = fixture.mirror({ client: held.client, collections: ['customers'], categories: false, pageLimit: 5, pagesPerTransaction: 1 });
    const controller = new AbortController();
    const sync = mirror.syncNow({ signal: controller.signal });
    await held.waiting;
    controller.abort();
    await expect(sync).rejects.toSatisfy(isAbortError);
    held.letGo();

    // The pages written before the abort stay, and the traversal's cursor with them.
    const kept = await mirror.db.customers.count();
    expect(kept).toBeGreaterThanOrEqual(5);
    expect(kept).toBeLessThan(fixture.sim.store.list('customers').length);
    expect((await mirror.db._sync_checkpoints.get('customers'))?.cursor?.records).toBe(kept);
    // An aborted call is no failure.
    expect(mirror.status.value).toMatchObject({ phase: 'idle', lastError: undefined });

    const report = await mirror.syncNow();
    expect(report.pulls[0]).toMatchObject({ collection: 'customers' });
    await expectConverged(mirror.db, fixture.sim, ['customers']);
  });

  it('ends a call still waiting for its turn at once, and leaves the run before it alone', async () => {
    fixture = await startMirrorFixture();
    const held = heldCustomerPages(fixture, 1);
    const mirror = fixture.mirror({ client: held.client, collections: ['customers'], categories: false, pageLimit: 5 });
    await mirror.start();
    const first = mirror.syncNow();
    await held.waiting;
    const controller = new AbortController();
    const waiting = mirror.syncNow({ signal: controller.signal });
    const reconcile = mirror.reconcile({ signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toSatisfy(isAbortError);
    await expect(reconcile).rejects.toSatisfy(isAbortError);
    held.letGo();
    await first;
    await expectConverged(mirror.db, fixture.sim, ['customers']);
    await waitFor(mirror.status, (s) => s.phase === 'idle' && s.lastError === undefined);
  });

  it('ends a resync mid-sweep; the records stay, and the next run traverses again in full', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers'], categories: false, pageLimit: 5 });
    await mirror.syncNow();
    const count = await mirror.db.customers.count();
    const sweep = heldCustomerPages(fixture, 1);
    const swept = fixture.mirror({ client: sweep.client, collections: ['customers'], categories: false, pageLimit: 5 });
    await mirror.close();
    const controller = new AbortController();
    const resync = swept.resync({ signal: controller.signal });
    await sweep.waiting;
    controller.abort();
    await expect(resync).rejects.toSatisfy(isAbortError);
    sweep.letGo();
    expect(await swept.db.customers.count()).toBe(count);

    fixture.sim.store.write('customers', { id: fixture.sim.store.list('customers')[0]!.id, note_internal: 'changed meanwhile' });
    await swept.syncNow();
    await expectConverged(swept.db, fixture.sim, ['customers']);
  });

  it('refuses a take-over whose signal is aborted, leaving both copies as they were', async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 3 });
    const factory = new IDBFactory();
    const old = mirrors.at(sim, sim.baseUrl, factory);
    await old.syncNow();
    const [id] = (await old.db.customers.toArray()).map((c) => c.id);
    await old.save('customers', { id: id!, note_internal: 'old address' });
    await old.close();
    const current = mirrors.at(sim, `${sim.baseUrl}/`, factory, { dbName: 'current-copy' });
    await current.syncNow();
    const oldName = defaultDbName(sim.baseUrl);

    await expect(current.takeOverEdits(oldName, { signal: AbortSignal.abort() })).rejects.toSatisfy(isAbortError);
    expect((await rawOutbox(factory, oldName))!.outbox).toHaveLength(1);
    expect(await current.pending()).toEqual([]);
    expect(await current.takeOverEdits(oldName, { signal: new AbortController().signal })).toMatchObject({ taken: 1, cleared: 1 });
  });
});
