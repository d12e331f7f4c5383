import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthError, ValidationError } from '../../src/errors/index.js';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { expectConverged } from './convergence.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('createMirror', () => {
  it('refuses bad options with a ValidationError naming each', () => {
    expect(() => createMirror({ baseUrl: 'http://127.0.0.1:1/api' } as never)).toThrow(ValidationError);
    const error = (() => {
      try {
        createMirror({ collections: ['products', 'nope' as never], pollIntervalMs: -1, conflict: 'whatever' as never } as never);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    const paths = (error as ValidationError).issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['baseUrl', 'token', 'userAgent', 'collections.1', 'pollIntervalMs', 'conflict']));
    expect(() => createMirror({ client: {} as never })).toThrow(/dbName/);
  });

  it('makes a full first sync, then equals the server record for record, categories included', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const report = await mirror.syncNow();
    expect(report.ran).toBe(true);
    await expectConverged(mirror.db, fixture.sim, COLLECTIONS);
    const tree = await mirror.query.categoryTree();
    const countNodes = (nodes: { children: unknown[] }[]): number => nodes.reduce((n, c) => n + 1 + countNodes(c.children as never), 0);
    const liveCategories = (await mirror.db.categories.toArray()).filter((c) => !c._d).length;
    expect(countNodes(tree)).toBe(liveCategories);
    expect(liveCategories).toBeGreaterThan(0);
    expect(mirror.status.value).toMatchObject({ phase: 'idle', lastError: undefined });
    expect(mirror.status.value.lastSyncAt).toBeTypeOf('number');
    expect(Object.values(mirror.progress.value.collections).every((p) => p?.done)).toBe(true);
  });

  it('as leader, syncs on start and keeps live queries current as registers sell', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ pollIntervalMs: 200 });
    const counts: number[] = [];
    const sub = mirror.live(() => mirror.db.orders.count()).subscribe((n) => counts.push(n));
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    const before = fixture.sim.store.count('orders');
    fixture.sim.store.sell();
    fixture.sim.store.sell();
    await waitFor(mirror.live(() => mirror.db.orders.count()), (n) => n === before + 2);
    await vi.waitFor(() => expect(counts[counts.length - 1]).toBe(before + 2));
    sub.unsubscribe();
    // The subscription made before the first sync saw the data arrive, then each sale.
    expect(counts[0]).toBe(0);
    // The orders can be in while the run that brought them still pulls their items (and a sale that
    // came after its transactions were pulled waits for the next run): one more run, then all agree.
    await mirror.syncNow();
    await expectConverged(mirror.db, fixture.sim, ['orders', 'order_details', 'transactions']);
  });

  it('elects one leader among mirrors of one database and hands over when it closes', async () => {
    fixture = await startMirrorFixture();
    // A lease a loaded machine's stalls cannot let lapse: A leads until it closes (and gives the lease back).
    const options = { leaderLeaseMs: 5_000, collections: ['customers' as const], categories: false };
    const a = fixture.mirror(options);
    const b = fixture.mirror(options);
    await a.start();
    await waitFor(a.status, (s) => s.leader);
    await b.start();
    // B's first campaign has an outcome once its syncNow() answers (`following` also shows before): it follows, and runs nothing.
    expect((await b.syncNow()).ran).toBe(false);
    expect(b.status.value.leader).toBe(false);
    expect(b.status.value.phase).toBe('following');
    await a.close();
    await waitFor(b.status, (s) => s.leader, 10_000);
    await waitFor(b.status, (s) => s.lastSyncAt !== undefined);
  });

  it('has the leader push an edit made in a follower tab at once, not at its next poll', async () => {
    fixture = await startMirrorFixture();
    const leader = fixture.mirror({ pollIntervalMs: 3_600_000 });
    const follower = fixture.mirror({ pollIntervalMs: 3_600_000 });
    await leader.start();
    await waitFor(leader.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await follower.start();
    const id = await follower.save('customers', { company: 'Kavárna U Mostu', email: 'info@example.com' });
    await vi.waitFor(() => expect(fixture!.sim.requests.timesPosted('customers', id)).toBe(1), { timeout: 10_000 });
    await waitFor(follower.status, (s) => s.pendingPushes === 0);
  });

  it('stops on a refused token, says so, and resumes after setToken', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ token: 'wrong-token' });
    await expect(mirror.syncNow()).rejects.toBeInstanceOf(AuthError);
    expect(mirror.status.value.phase).toBe('auth-error');
    expect(JSON.stringify(mirror.status.value)).not.toContain('wrong-token');
    mirror.setToken(fixture.sim.token);
    await mirror.syncNow();
    expect(mirror.status.value.phase).not.toBe('auth-error');
    await expectConverged(mirror.db, fixture.sim, ['customers']);
  });

  it('pauses when the push after an edit meets a refused token, and resumes after setToken', async () => {
    fixture = await startMirrorFixture();
    // A long poll, so that only the push that follows an edit meets the refused token.
    const mirror = fixture.mirror({ pollIntervalMs: 3_600_000 });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    mirror.setToken('a-revoked-token');
    const id = await mirror.save('customers', { company: 'Pekárna Na Rohu', email: 'pekarna@example.com' });
    await waitFor(mirror.status, (s) => s.phase === 'auth-error');
    mirror.setToken(fixture.sim.token);
    await vi.waitFor(() => expect(fixture!.sim.requests.timesPosted('customers', id)).toBe(1), { timeout: 10_000 });
    await waitFor(mirror.status, (s) => s.pendingPushes === 0 && s.phase !== 'auth-error');
  });

  it('takes an environment whose methods read its own fields through this (regression: its clock was called unbound)', async () => {
    fixture = await startMirrorFixture();
    const environment = {
      offsetMs: 1_000,
      now(): number {
        return Date.now() + this.offsetMs;
      },
      online: true,
      isOnline(): boolean {
        return this.online;
      },
    };
    const mirror = fixture.mirror({ environment });
    const before = Date.now();
    const report = await mirror.syncNow();
    expect(report.ran).toBe(true);
    expect(report.finishedAt).toBeGreaterThanOrEqual(before + environment.offsetMs);
  });

  it('accepts a pageLimit above a collection maximum and syncs with it clamped per collection', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ pageLimit: 1_000, collections: ['orders', 'customers'], categories: false });
    await mirror.syncNow();
    await expectConverged(mirror.db, fixture.sim, ['orders', 'customers']);
  });

  it('ingests records from other sources through the same rules, quarantining bad ones', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['customers'] });
    const customer = (await mirror.db.customers.toArray())[0]!;
    await mirror.ingest('customers', [
      { ...customer, id: Number(customer.id) <= Number.MAX_SAFE_INTEGER ? customer.id : customer.id, _v: customer._v + 10, note: 'from a webhook' },
      { ...customer, _v: customer._v - 1, note: 'older, ignored' },
      { id: 'not-an-id', _v: 1 },
    ]);
    expect((await mirror.db.customers.get(customer.id))?.note).toBe('from a webhook');
    const quarantined = await mirror.db._sync_quarantine.toArray();
    expect(quarantined).toHaveLength(1);
    await expect(mirror.ingest('nope' as never, [])).rejects.toBeInstanceOf(ValidationError);
  });

  it('watches the latest orders of a register and upserts them', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const register = String(fixture.sim.store.list('cash_registers')[0]!.id);
    const sale = fixture.sim.store.sell({ idCashRegister: register });
    const stop = mirror.watchLatestOrders(register, { intervalMs: 50 });
    await waitFor(mirror.live(() => mirror.db.orders.get(String(sale.order.id))), (o) => o !== undefined);
    stop();
  });

  it('quarantines a latest order the read schema refuses, as a pull would', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const register = String(fixture.sim.store.list('cash_registers')[0]!.id);
    const good = fixture.sim.store.sell({ idCashRegister: register });
    const bad = fixture.sim.store.sell({ idCashRegister: register });
    fixture.sim.store.collection('orders').put({ ...bad.order, _v: 'not a version' } as never);
    const stop = mirror.watchLatestOrders(register, { intervalMs: 50 });
    await waitFor(mirror.live(() => mirror.db._sync_quarantine.toArray()), (rows) => rows.length > 0);
    stop();
    expect(await mirror.db.orders.get(String(good.order.id))).toBeDefined();
    expect(await mirror.db._sync_quarantine.toArray()).toMatchObject([{ collection: 'orders', id: String(bad.order.id) }]);
  });

  it('keeps one quarantine row for a refused latest order however often it is polled', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const sale = fixture.sim.store.sell();
    const order = fixture.sim.store.get('orders', String(sale.order.id))!;
    fixture.sim.store.collection('orders').put({ ...order, total_paid_real: 'bad' } as never);
    const before = fixture.sim.requests.recent().length;
    const stop = mirror.watchLatestOrders(String(order.id_cash_register), { intervalMs: 20 });
    await vi.waitFor(() => expect(fixture!.sim.requests.recent().slice(before).filter((r) => r.path.includes('/orders/latest')).length).toBeGreaterThanOrEqual(4), {
      timeout: 10_000,
    });
    stop();
    expect((await mirror.db._sync_quarantine.toArray()).map((r) => [r.key, r.id])).toEqual([[`orders:${order.id}`, String(order.id)]]);
    expect((await waitFor(mirror.status, (s) => s.quarantined === 1)).quarantined).toBe(1);
  });

  it('counts a record fixed on the server and applied as no longer quarantined', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['employees'], categories: false });
    await mirror.syncNow();
    const victim = fixture.sim.store.list('employees')[1]!;
    fixture.sim.store.collection('employees').put({ ...victim, _d: 'bad', _v: fixture.sim.store.now() + 1 } as never);
    await mirror.syncNow();
    await waitFor(mirror.status, (s) => s.quarantined === 1);
    // The back office fixes it: a normal write, with a new _v.
    fixture.sim.store.advanceClock(1_000);
    fixture.sim.store.write('employees', { ...victim, _d: 0, note: 'fixed' } as never);
    await mirror.syncNow();
    expect((await mirror.db.employees.get(String(victim.id)))?.note).toBe('fixed');
    expect(await mirror.db._sync_quarantine.count()).toBe(0);
    expect((await waitFor(mirror.status, (s) => s.quarantined === 0)).quarantined).toBe(0);
  });

  it('repairs what a delta missed and removes what vanished, in a reconcile sweep', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow();
    const [gone, stale] = await mirror.db.products.toArray();
    await mirror.db.products.delete(gone!.id);
    await mirror.db.products.put({ ...stale!, _v: 1, name: 'stale copy' });
    await mirror.db.products.put({ ...stale!, id: '999999999999999990', name: 'only local' });
    const [report] = await mirror.reconcile({ collections: ['products'] });
    expect(report).toMatchObject({ collection: 'products', repaired: 2, vanished: 1 });
    await expectConverged(mirror.db, fixture.sim, ['products']);
  });

  it('rebuilds on resync without clearing what the user sees', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow();
    const seen: number[] = [];
    // With the count, the collection's checkpoint row: it tells which state of the database a value shows.
    const shown = async () => ({ count: await mirror.db.employees.count(), row: await mirror.db._sync_checkpoints.get('employees') });
    let last: Awaited<ReturnType<typeof shown>> | undefined;
    const sub = mirror.live(shown).subscribe((value) => {
      seen.push(value.count);
      last = value;
    });
    await vi.waitFor(() => expect(last).toBeDefined());
    await mirror.resync({ collections: ['employees'] });
    // The live query has shown the state the resync left (its checkpoint row written last).
    const after = await mirror.db._sync_checkpoints.get('employees');
    await vi.waitFor(() => expect(last?.row).toEqual(after));
    sub.unsubscribe();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n) => n === fixture!.sim.store.count('employees'))).toBe(true);
    expect((await mirror.db._sync_checkpoints.get('employees'))?.checkpoint).toBeGreaterThan(0);
  });

  it('pushes an edit saved before a crash, exactly once, when a new mirror opens the database', async () => {
    fixture = await startMirrorFixture();
    const first = fixture.mirror();
    await first.syncNow({ collections: ['customers'] });
    const id = await first.save('customers', { company: null, firstname: 'Jiří', lastname: 'Dvořák', email: 'jiri@example.com' });
    await first.close();
    const second = fixture.mirror();
    expect((await second.pending()).map((e) => e.id)).toEqual([id]);
    await second.syncNow({ collections: ['customers'] });
    await second.syncNow({ collections: ['customers'] });
    expect(await second.pending()).toEqual([]);
    expect(fixture.sim.store.list('customers').filter((c) => c.id === id)).toHaveLength(1);
    await expectConverged(second.db, fixture.sim, ['customers']);
  });

  it('stops with a storage-error status on a quota error and leaves the data consistent', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    let fail = false;
    mirror.db.use({
      stack: 'dbcore',
      name: 'quota',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return {
            ...table,
            mutate: (req) => (fail && name === 'orders' ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : table.mutate(req)),
          };
        },
      }),
    });
    await mirror.syncNow({ collections: ['customers'] });
    fail = true;
    await expect(mirror.syncNow({ collections: ['orders'] })).rejects.toThrow();
    expect(mirror.status.value.phase).toBe('storage-error');
    expect(await mirror.db.orders.count()).toBe(0);
    expect((await mirror.db._sync_checkpoints.get('orders'))?.cursor).toBeUndefined();
    fail = false;
    await mirror.syncNow({ collections: ['orders'] });
    await expectConverged(mirror.db, fixture.sim, ['orders', 'customers']);
  });

  it('keeps two devices apart: one database each, both converge', async () => {
    fixture = await startMirrorFixture();
    const a = fixture.mirror();
    const b = fixture.mirror({ factory: new IDBFactory() });
    await a.syncNow();
    await b.syncNow();
    await expectConverged(a.db, fixture.sim, COLLECTIONS);
    await expectConverged(b.db, fixture.sim, COLLECTIONS);
  });
});
