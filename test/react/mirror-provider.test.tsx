// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Mirror } from '../../src/mirror/mirror.js';
import { MirrorProvider, useMirror, useMirrorStatus } from '../../src/react/index.js';
import { startMirrorFixture, waitFor as statusReaches, type MirrorFixture } from '../mirror/fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  cleanup();
  await fixture?.close();
  fixture = undefined;
});

/** Records every mirror its provider gave it, and shows the status. */
function Probe({ seen }: { seen: Set<Mirror> }) {
  const mirror = useMirror();
  const status = useMirrorStatus();
  useEffect(() => {
    if (mirror) seen.add(mirror);
  }, [mirror, seen]);
  return (
    <p data-testid="status">
      {status.phase} {status.lastSyncAt === undefined ? 'never' : 'synced'}
    </p>
  );
}

const synced = () => waitFor(() => expect(screen.getByTestId('status').textContent).toMatch(/synced/), { timeout: 10_000 });

describe('MirrorProvider given a mirror', () => {
  it('starts it while mounted and stops it on unmount without closing it', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const seen = new Set<Mirror>();
    const onError = vi.fn();
    const view = render(
      <MirrorProvider mirror={mirror} onError={onError}>
        <Probe seen={seen} />
      </MirrorProvider>,
    );
    await synced();
    expect([...seen]).toEqual([mirror]);
    expect(mirror.status.value.leader).toBe(true);

    view.unmount();
    await statusReaches(mirror.status, (s) => s.phase === 'stopped');
    // Still open: the app that made it closes it.
    const report = await mirror.syncNow({ collections: ['shops'] });
    expect(report.ran).toBe(true);
    expect(onError).not.toHaveBeenCalled();
  });

  it('with start={false} only provides it', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    render(
      <MirrorProvider mirror={mirror} start={false}>
        <Probe seen={new Set()} />
      </MirrorProvider>,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(mirror.status.value).toMatchObject({ phase: 'idle', leader: false, lastSyncAt: undefined });
    expect(fixture.sim.requests.count()).toBe(0);
  });

  it('keeps a mirror shared by two providers running until the last one unmounts', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ pollIntervalMs: 200 });
    const first = render(<MirrorProvider mirror={mirror}><Probe seen={new Set()} /></MirrorProvider>);
    const second = render(<MirrorProvider mirror={mirror}><p>second</p></MirrorProvider>);
    await statusReaches(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);

    first.unmount();
    await new Promise((r) => setTimeout(r, 400));
    expect(mirror.status.value.phase).not.toBe('stopped');
    expect(mirror.status.value.leader).toBe(true);
    // It goes on syncing on its schedule for the provider still mounted.
    const sale = fixture.sim.store.sell();
    await vi.waitFor(async () => expect(await mirror.db.orders.get(String(sale.order.id))).toBeDefined(), { timeout: 5_000 });

    second.unmount();
    await statusReaches(mirror.status, (s) => s.phase === 'stopped' && !s.leader);
  });
});

describe('MirrorProvider given options', () => {
  it('makes one mirror under StrictMode, syncs it, and closes it after unmount', async () => {
    fixture = await startMirrorFixture();
    const seen = new Set<Mirror>();
    const onError = vi.fn();
    const view = render(
      <StrictMode>
        <MirrorProvider options={fixture.options()} onError={onError}>
          <Probe seen={seen} />
        </MirrorProvider>
      </StrictMode>,
    );
    await synced();
    expect(seen.size).toBe(1);
    const [mirror] = [...seen];
    fixture.adopt(mirror!);
    expect(mirror!.status.value.phase).not.toBe('closed');

    view.unmount();
    await statusReaches(mirror!.status, (s) => s.phase === 'closed');
    expect(onError).not.toHaveBeenCalled();
  });

  it('reads its options once: a re-render with new options keeps the mirror', async () => {
    fixture = await startMirrorFixture();
    const seen = new Set<Mirror>();
    const view = render(<MirrorProvider options={fixture.options()}><Probe seen={seen} /></MirrorProvider>);
    await synced();
    view.rerender(<MirrorProvider options={fixture.options({ pollIntervalMs: 1_000 })}><Probe seen={seen} /></MirrorProvider>);
    await synced();
    expect(seen.size).toBe(1);
    for (const m of seen) fixture.adopt(m);
    view.unmount();
  });

  it('unmounted during the first sync: closes without an error, and a new provider finishes the sync on the same database', async () => {
    fixture = await startMirrorFixture({ faults: { latencyMs: 40 } });
    const seen = new Set<Mirror>();
    const onError = vi.fn();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const view = render(<MirrorProvider options={fixture.options()} onError={onError}><Probe seen={seen} /></MirrorProvider>);
      await waitFor(() => expect(screen.getByTestId('status').textContent).toMatch(/initial-sync/), { timeout: 10_000 });
      const [first] = [...seen];
      fixture.adopt(first!);
      // Some pages are in, not all.
      await vi.waitFor(() => expect(fixture!.sim.requests.count()).toBeGreaterThan(2), { timeout: 5_000 });
      await act(async () => view.unmount());
      await statusReaches(first!.status, (s) => s.phase === 'closed');
      expect(first!.status.value.lastSyncAt).toBeUndefined();

      fixture.sim.setFaults({});
      const again = new Set<Mirror>();
      const next = render(<MirrorProvider options={fixture.options()} onError={onError}><Probe seen={again} /></MirrorProvider>);
      await synced();
      const [second] = [...again];
      fixture.adopt(second!);
      expect(second).not.toBe(first);
      for (const shop of fixture.sim.store.list('shops')) expect(await second!.db.shops.get(String(shop.id))).toBeDefined();
      expect(await second!.db.customers.count()).toBe(fixture.sim.store.count('customers'));
      next.unmount();
      await new Promise((r) => setTimeout(r, 50));
      expect(onError).not.toHaveBeenCalled();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
