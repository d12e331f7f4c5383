import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('watchLatestOrders', () => {
  it('refuses a register id that is not a record id with a ValidationError, at once, and polls nothing', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    expect(() => mirror.watchLatestOrders('register-7')).toThrow(ValidationError);
    expect(() => mirror.watchLatestOrders(-1 as never)).toThrow(/idCashRegister/);
    expect(() => mirror.watchLatestOrders('0')).toThrow(/idCashRegister/);
    await new Promise((r) => setTimeout(r, 100));
    expect(fixture.sim.requests.count('GET /orders/latest/:id_cash_register')).toBe(0);
    expect(mirror.status.value.lastError).toBeUndefined();
  });

  it('refuses an intervalMs that is not an integer from 1 to 2 147 483 647 (no tight loop on orders/latest)', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const register = String(fixture.sim.store.list('cash_registers')[0]!.id);
    for (const intervalMs of [0, -5, 1.5, Number.NaN, Infinity, 2_147_483_648]) {
      expect(() => mirror.watchLatestOrders(register, { intervalMs }), String(intervalMs)).toThrow(/intervalMs/);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(fixture.sim.requests.count('GET /orders/latest/:id_cash_register')).toBe(0);
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
    const polls = fixture.sim.requests.count('GET /orders/latest/:id_cash_register');
    await new Promise((r) => setTimeout(r, 200));
    expect(fixture.sim.requests.count('GET /orders/latest/:id_cash_register')).toBeLessThanOrEqual(polls + 1);
  });
});
