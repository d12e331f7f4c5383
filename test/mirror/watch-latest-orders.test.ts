import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const LATEST = 'GET /orders/latest/:id_cash_register';

/** How many polls of `register`'s latest orders reached the simulator. */
function pollsOf(fixture: MirrorFixture, register: string): number {
  return fixture.sim.requests.recent().filter((r) => r.route === LATEST && r.path.endsWith(`/${register}`)).length;
}

/**
 * Resolves once a poller of `register`, started now with `intervalMs`, has polled `times` times
 * (then stops it): a poller set going earlier, on the same clock, has had its chance to poll by
 * then, and the server has handled what was sent.
 */
async function probePolled(fixture: MirrorFixture, mirror: Mirror, register: string, times: number, intervalMs = 50): Promise<void> {
  const before = pollsOf(fixture, register);
  const stop = mirror.watchLatestOrders(register, { intervalMs });
  await vi.waitFor(() => expect(pollsOf(fixture, register)).toBeGreaterThanOrEqual(before + times), { timeout: 10_000 });
  stop();
  await fixture.sim.idle();
}

describe('watchLatestOrders', () => {
  it('refuses a register id that is not a record id with a ValidationError, at once, and polls nothing', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    expect(() => mirror.watchLatestOrders('register-7')).toThrow(ValidationError);
    expect(() => mirror.watchLatestOrders(-1 as never)).toThrow(/idCashRegister/);
    expect(() => mirror.watchLatestOrders('0')).toThrow(/idCashRegister/);
    const register = String(fixture.sim.store.list('cash_registers')[0]!.id);
    await probePolled(fixture, mirror, register, 1);
    // Only the probe polled.
    expect(fixture.sim.requests.count(LATEST)).toBe(pollsOf(fixture, register));
    expect(mirror.status.value.lastError).toBeUndefined();
  });

  it('refuses an intervalMs that is not an integer from 1 to 2 147 483 647 (no tight loop on orders/latest)', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const [register, probe] = fixture.sim.store.list('cash_registers').map((r) => String(r.id));
    for (const intervalMs of [0, -5, 1.5, Number.NaN, Infinity, 2_147_483_648]) {
      expect(() => mirror.watchLatestOrders(register!, { intervalMs }), String(intervalMs)).toThrow(/intervalMs/);
    }
    await probePolled(fixture, mirror, probe!, 1);
    expect(pollsOf(fixture, register!)).toBe(0);
  });

  it('takes a register id as a number or with leading zeros, and keeps polling after stop() until its own stop function', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const register = String(fixture.sim.store.list('cash_registers')[0]!.id);
    await mirror.start();
    await mirror.stop();
    const stopWatching = mirror.watchLatestOrders(`00${register}`, { intervalMs: 50 });
    const sale = fixture.sim.store.sell({ idCashRegister: register });
    await waitFor(mirror.live(() => mirror.db.orders.get(String(sale.order.id))), (o) => o !== undefined);
    stopWatching();
    const polls = pollsOf(fixture, register);
    expect(polls).toBeGreaterThan(0);
    // Five polls of another register at the same interval: the stopped poller would have polled about as often meanwhile.
    const probe = String(fixture.sim.store.list('cash_registers')[1]!.id);
    await probePolled(fixture, mirror, probe, 5);
    // One poll may have been on its way as it stopped.
    expect(pollsOf(fixture, register)).toBeLessThanOrEqual(polls + 1);
  });
});
