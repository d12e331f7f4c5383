import { afterEach, describe, expect, it } from 'vitest';
import { isHttpError } from '../../src/errors/index.js';
import type { CollectionName } from '../../src/schema/collections.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** The collections without an earlier `/list` form: a server that only knows those forms lacks them. */
const WITHOUT_LIST_FORM: CollectionName[] = ['employees', 'park_locations', 'shifts', 'stock_history', 'stockup', 'transactions', 'warehouses'];

const requestsTo = (f: MirrorFixture, collection: string) =>
  f.sim.requests.count(`GET /${collection}`) + f.sim.requests.count(`GET /${collection}/list`);

describe('a server lacking collections (legacy /list paths only, the others missing)', () => {
  it('pulls the collections it has, pushes, and names the missing ones in the report and the status', async () => {
    fixture = await startMirrorFixture({ legacyPathsOnly: true, missingCollections: WITHOUT_LIST_FORM });
    const mirror = fixture.mirror();
    const id = await mirror.save('customers', { company: 'Pekárna U Mlýna', email: 'mlyn@example.com' });
    const report = await mirror.syncNow();
    expect([...report.unavailable].sort()).toEqual([...WITHOUT_LIST_FORM].sort());
    expect(report.failed).toEqual([]);
    expect(report.pulls.map((p) => p.collection)).toContain('order_details');
    expect(await mirror.db.products.count()).toBe(fixture.sim.store.count('products'));
    expect(await mirror.db.orders.count()).toBe(fixture.sim.store.count('orders'));
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(1);
    expect(mirror.status.value).toMatchObject({ phase: 'idle', lastError: undefined });
    await expect.poll(() => [...mirror.status.value.unavailable].sort()).toEqual([...WITHOUT_LIST_FORM].sort());
  });

  it('keeps the edits of a missing collection in the outbox, counted, and pushes them once it is back', async () => {
    fixture = await startMirrorFixture({ missingCollections: ['warehouses'] });
    const mirror = fixture.mirror();
    await mirror.syncNow();
    const id = await mirror.save('warehouses', { name: 'Sklad Brno' });
    await mirror.syncNow();
    expect(fixture.sim.requests.count('POST /warehouses')).toBe(0);
    expect((await mirror.pending()).map((e) => e.id)).toEqual([id]);
    await expect.poll(() => mirror.status.value.pendingPushes).toBe(1);

    fixture.sim.setOptions({ missingCollections: [] });
    const report = await mirror.syncNow({ collections: ['warehouses'] });
    expect(report.unavailable).toEqual([]);
    expect(fixture.sim.requests.timesPosted('warehouses', id)).toBe(1);
    expect(await mirror.pending()).toEqual([]);
    await expect.poll(() => mirror.status.value.unavailable).toEqual([]);
  });

  it('does not ask a missing collection on every poll, but again after the reconcile interval and on resync()', async () => {
    fixture = await startMirrorFixture({ missingCollections: ['employees'] });
    // The mirror's clock runs ahead when the test says so: however slow the machine, no real
    // pause between two calls comes near the interval, and the skip ahead always passes it.
    let ahead = 0;
    const mirror = fixture.mirror({ reconcileIntervalMs: 60_000, environment: { now: () => Date.now() + ahead } });
    await mirror.syncNow();
    const asked = requestsTo(fixture, 'employees');
    expect(asked).toBeGreaterThan(0);
    const again = await mirror.syncNow();
    expect(again.unavailable).toEqual(['employees']);
    expect(requestsTo(fixture, 'employees')).toBe(asked);

    ahead += 61_000;
    await mirror.syncNow();
    expect(requestsTo(fixture, 'employees')).toBeGreaterThan(asked);

    fixture.sim.setOptions({ missingCollections: [] });
    const before = requestsTo(fixture, 'employees');
    await mirror.syncNow(); // marked again a moment ago: not asked
    expect(requestsTo(fixture, 'employees')).toBe(before);
    await mirror.resync({ collections: ['employees'] });
    expect(await mirror.db.employees.count()).toBe(fixture.sim.store.count('employees'));
    await expect.poll(() => mirror.status.value.unavailable).toEqual([]);
  });

  it('carries on without the category tree when the tenant lacks it', async () => {
    fixture = await startMirrorFixture({ missingCollections: ['categories'] });
    const mirror = fixture.mirror();
    const report = await mirror.syncNow();
    expect(report.unavailable).toEqual(['categories']);
    expect(report.categories).toBeUndefined();
    expect(await mirror.db.customers.count()).toBe(fixture.sim.store.count('customers'));
  });

  it('lets reconcile() and resync() of every collection finish the others and mark the missing one', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow();
    fixture.sim.setOptions({ missingCollections: ['shifts'] });
    const reports = await mirror.reconcile();
    expect(reports.map((r) => r.collection)).not.toContain('shifts');
    expect(reports).toHaveLength(13);
    await expect.poll(() => mirror.status.value.unavailable).toEqual(['shifts']);
    await mirror.resync();
    expect(await mirror.db.orders.count()).toBe(fixture.sim.store.count('orders'));
  });
});

describe('a collection whose list keeps failing', () => {
  it('fails alone: the others are pulled and pushed, the failure is reported per collection, and its edits wait', async () => {
    fixture = await startMirrorFixture({ failingCollections: ['customers'] });
    const mirror = fixture.mirror();
    const customer = await mirror.save('customers', { company: 'Květinářství Jaro', email: 'jaro@example.com' });
    const warehouse = await mirror.save('warehouses', { name: 'Sklad Ostrava' });
    const report = await mirror.syncNow();
    expect(report.failed).toEqual([{ collection: 'customers', error: expect.objectContaining({ name: 'HttpError' }) }]);
    expect(report.failed[0]!.error.message).toContain('500');
    expect(fixture.sim.requests.timesPosted('warehouses', warehouse)).toBe(1);
    expect(fixture.sim.requests.timesPosted('customers', customer)).toBe(0);
    expect(await mirror.db.orders.count()).toBe(fixture.sim.store.count('orders'));
    expect(mirror.status.value.failing.customers).toMatchObject({ name: 'HttpError' });
    expect(mirror.status.value.phase).toBe('idle');

    const asked = requestsTo(fixture, 'customers');
    await mirror.syncNow();
    expect(requestsTo(fixture, 'customers')).toBeGreaterThan(asked);

    fixture.sim.setOptions({ failingCollections: [] });
    const healed = await mirror.syncNow();
    expect(healed.failed).toEqual([]);
    expect(fixture.sim.requests.timesPosted('customers', customer)).toBe(1);
    expect(mirror.status.value.failing).toEqual({});
  });

  it('fails the run when every collection fails, so the status shows the error', async () => {
    fixture = await startMirrorFixture({ failingCollections: ['customers', 'products', 'product_price_matrix'] });
    const mirror = fixture.mirror({ collections: ['customers', 'products'] });
    const failure = await mirror.syncNow().catch((e: unknown) => e);
    expect(isHttpError(failure) && failure.status).toBe(500);
    expect(mirror.status.value.phase).toBe('error');
  });

  it('still stops the whole run on an auth failure', async () => {
    fixture = await startMirrorFixture({ failingCollections: ['customers'] });
    const mirror = fixture.mirror({ token: 'not-the-token' });
    await expect(mirror.syncNow()).rejects.toMatchObject({ name: 'AuthError' });
    expect(mirror.status.value.phase).toBe('auth-error');
  });
});

describe('quarantine at scale', () => {
  it('counts held-back records per collection and names a collection whose page was mostly refused', async () => {
    fixture = await startMirrorFixture();
    const products = fixture.sim.store.collection('products');
    // The back office writes products this version's schema cannot read (a name that is not a string).
    const ids = fixture.sim.store.list('products').slice(0, 25).map((p) => p.id);
    for (const id of ids) {
      const record = products.get(String(id))!;
      products.put({ ...record, name: 42, _v: fixture.sim.store.advanceClock(1) }, record);
    }
    const mirror = fixture.mirror();
    const report = await mirror.syncNow();
    const pull = report.pulls.find((p) => p.collection === 'products')!;
    expect(pull.mostlyRefused).toBe(true);
    expect(pull.quarantined).toBe(25);
    await expect.poll(() => mirror.status.value.quarantinedBy.products).toBe(25);
    expect(mirror.status.value.refusing).toEqual(['products']);
    expect(report.pulls.find((p) => p.collection === 'customers')!.mostlyRefused).toBe(false);

    // Fixed on the server: the page is accepted, and the collection leaves the list.
    for (const id of ids) fixture.sim.store.editProduct(String(id), { name: `Káva ${id}` });
    await mirror.syncNow();
    expect(mirror.status.value.refusing).toEqual([]);
    await expect.poll(() => mirror.status.value.quarantinedBy).toEqual({});
  });
});
