import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('start() and stop() called in quick succession', () => {
  it('syncs when start() comes before a stop() has finished (a UI effect cleaned up and run again, as React StrictMode does)', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ pollIntervalMs: 200 });
    await mirror.start();
    void mirror.stop(); // the cleanup does not wait
    await mirror.start();
    const { lastSyncAt: first } = await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    // A later scheduled run: the stop that was winding down has finished, and the schedule carries on.
    await waitFor(mirror.status, (s) => s.lastSyncAt! > first!);
    expect(mirror.status.value.leader).toBe(true);
    expect(['idle', 'syncing']).toContain(mirror.status.value.phase);
    const id = await mirror.save('customers', { company: 'Řeznictví Kos', email: 'kos@example.com' });
    await vi.waitFor(() => expect(fixture!.sim.requests.timesPosted('customers', id)).toBe(1), { timeout: 5_000 });
  });

  it('ends stopped when the last call is stop(), even if a start() was waiting for an earlier stop()', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ pollIntervalMs: 200 });
    await mirror.start();
    void mirror.stop();
    const starting = mirror.start();
    const stopped = mirror.stop();
    await starting;
    await stopped;
    // A syncNow() of a running mirror waits for its election: in a stopped one it runs at once, and the status comes back to stopped.
    await mirror.syncNow({ collections: ['customers'] });
    expect(mirror.status.value).toMatchObject({ phase: 'stopped', leader: false });
  });
});

describe('syncNow() after stop()', () => {
  it('runs, as on a mirror never started, and the status comes back to stopped', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await mirror.stop();
    const sale = fixture.sim.store.sell();
    const report = await mirror.syncNow({ collections: ['orders'] });
    expect(report.ran).toBe(true);
    expect(await mirror.db.orders.get(String(sale.order.id))).toBeDefined();
    expect(mirror.status.value).toMatchObject({ phase: 'stopped', leader: false, lastError: undefined });
  });
});

describe('syncNow() called right before stop()', () => {
  it('is ended by that stop(): it rejects with an AbortError and posts nothing, even while it was still waiting for the election', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers'], categories: false, pollIntervalMs: 3_600_000 });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    const id = await mirror.save('customers', { company: 'Sklárna Beneš', email: 'benes@example.com' });
    // A "Sync now" click, then the page hides (pagehide stops the mirror) in the same task.
    const run = mirror.syncNow().then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    await mirror.stop();
    expect(await run).toBe('AbortError');
    await fixture.sim.idle();
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(0);
    expect(await mirror.pending()).toHaveLength(1);
  });
});

describe('syncNow() right after start() in the only tab', () => {
  it('runs: no other tab leads, so this one is not a follower', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.start();
    const report = await mirror.syncNow({ collections: ['customers'] });
    expect(report.ran).toBe(true);
    expect(mirror.status.value.leader).toBe(true);
  });
});

describe('close() while a syncNow() of a mirror never started is running', () => {
  it('ends the run and resolves only after it, with the status closed for good', async () => {
    fixture = await startMirrorFixture({ faults: { latencyMs: 40 } });
    const mirror = fixture.mirror();
    let settled: string | undefined;
    const run = mirror.syncNow().then(
      () => (settled = 'resolved'),
      (e: Error) => (settled = e.name),
    );
    // Let the first pages land.
    await vi.waitFor(() => expect(fixture!.sim.requests.count()).toBeGreaterThan(0));
    await mirror.close();
    // close() "stops everything": when it resolves, no sync is still running against the database.
    expect(settled).toBe('AbortError');
    expect(mirror.status.value.phase).toBe('closed');
    await run;
    // The status completed with close(): nothing changes it any more.
    expect(mirror.status.value).toMatchObject({ phase: 'closed', leader: false });
  });
});
