import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidationError } from '../../src/errors/index.js';
import { validateWrite } from '../../src/schema/index.js';
import { STOCK_HISTORY_TYPES, createSimulator, type SimRecord, type Simulator } from '../../src/simulator/index.js';
import { api, idsOf } from './helpers.js';

describe('SimStore', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ seed: 13, clock: { start: Date.UTC(2025, 5, 1) } });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('starts its clock where asked and moves it forward on request', () => {
    const now = sim.store.now();
    expect(now).toBeGreaterThanOrEqual(Date.UTC(2025, 5, 1));
    expect(now).toBeLessThan(Date.UTC(2025, 5, 1) + 60_000);
    expect(sim.store.advanceClock(3_600_000)).toBeGreaterThanOrEqual(now + 3_600_000);
    expect(() => sim.store.advanceClock(-1)).toThrow(RangeError);
  });

  it('closes a sale the way a register does: order, items, payment, stock rows', () => {
    const register = sim.store.list('cash_registers')[1] as SimRecord;
    const orders = sim.store.count('orders');
    const sale = sim.store.sell({ idCashRegister: register.id as string, items: 3, idPayment: 222 });
    expect(sim.store.count('orders')).toBe(orders + 1);
    expect(sale.order).toMatchObject({ id_cash_register: register.id, id_shop: register.id_shop, id_payment: 222, _d: 0 });
    expect(sale.details).toHaveLength(3);
    expect(sale.stockHistory).toHaveLength(3);
    const total = sale.details.reduce((s, d) => s + Math.round((d.product_price_billed_tax_incl as number) * (d.product_quantity as number)), 0);
    expect(sale.order.total_paid_tax_incl).toBe(total);
    expect(sale.transaction).toMatchObject({ id_order: sale.order.id, total_amount: total, payment_type: 1 });
    for (const d of sale.details) expect(d).toMatchObject({ id_order: sale.order.id, id_shift: sale.order.id_shift, id_cash_register: register.id });
    for (const h of sale.stockHistory) expect(h).toMatchObject({ id_order: sale.order.id, stock_history_type: STOCK_HISTORY_TYPES.sale });
    expect(sale.stockHistory.every((h) => (h.quanity as number) < 0)).toBe(true);
    const shift = sim.store.get('shifts', sale.order.id_shift as string);
    expect(shift?.id_cash_register).toBe(register.id);
    expect(shift?.date_closed).toBeNull();
    expect(() => validateWrite('orders', sale.order)).not.toThrow();
    expect(() => validateWrite('transactions', sale.transaction)).not.toThrow();
    for (const d of sale.details) expect(() => validateWrite('order_details', d)).not.toThrow();
    for (const h of sale.stockHistory) expect(() => validateWrite('stock_history', h)).not.toThrow();
    expect((sale.details[2]?._v as number) > (sale.order._v as number)).toBe(true);
  });

  it('puts a sale at the top of the orders list and of orders/latest', async () => {
    const sale = sim.store.sell();
    expect(idsOf(await api(sim).list('/orders?limit=1'))).toEqual([sale.order.id]);
    expect(idsOf(await api(sim).list(`/orders/latest/${String(sale.order.id_cash_register)}`))[0]).toBe(sale.order.id);
  });

  it('opens a shift for a register that has none before selling on it', () => {
    const shop = sim.store.list('shops')[0] as SimRecord;
    const register = sim.store.write('cash_registers', { name: 'Pokladna nová', id_shop: shop.id });
    const sale = sim.store.sell({ idCashRegister: register.id as string });
    const shift = sim.store.get('shifts', sale.order.id_shift as string);
    expect(shift).toMatchObject({ id_cash_register: register.id, date_closed: null });
    expect(sim.store.sell({ idCashRegister: register.id as string }).order.id_shift).toBe(shift?.id);
  });

  it('moves stock in (with a stock-up) and out (a correction)', () => {
    const product = sim.store.list('products')[0] as SimRecord;
    const warehouse = sim.store.list('warehouses')[1] as SimRecord;
    const receipt = sim.store.moveStock({ idProduct: product.id as string, idWarehouse: warehouse.id as string, quantity: 24, unitPrice: 15_000 });
    expect(receipt.stockup).toMatchObject({ id_warehouse: warehouse.id, total_product_purchase_unit_price_tax_excl: 360_000 });
    expect(receipt.stockHistory).toMatchObject({ id_stockup: receipt.stockup?.id, id_record: product.id, quanity: 24, stock_history_type: STOCK_HISTORY_TYPES.stockup });
    const writeOff = sim.store.moveStock({ idProduct: product.id as string, idWarehouse: warehouse.id as string, quantity: -2 });
    expect(writeOff.stockup).toBeNull();
    expect(writeOff.stockHistory).toMatchObject({ id_stockup: null, quanity: -2, stock_history_type: STOCK_HISTORY_TYPES.correction });
    expect(() => sim.store.moveStock({ idProduct: product.id as string, idWarehouse: warehouse.id as string, quantity: 0 })).toThrow(/quantity/);
  });

  it('edits and removes records, stamping a new _v each time', () => {
    const product = sim.store.list('products').find((p) => p._d === 0) as SimRecord;
    const edited = sim.store.editProduct(product.id as string, { name: 'Přejmenováno' });
    expect(edited).toMatchObject({ name: 'Přejmenováno', id: product.id, date_created: product.date_created });
    expect(edited._v as number).toBeGreaterThan(product._v as number);
    expect(edited.date_updated as number).toBeGreaterThan(product._v as number);
    expect(edited.date_updated as number).toBeLessThanOrEqual(edited._v as number);
    const removed = sim.store.remove('products', product.id as string);
    expect(removed._d).not.toBe(0);
    expect(removed.visible).toBe(false);
    expect(removed._v as number).toBeGreaterThan(edited._v as number);
    const customer = sim.store.list('customers')[0] as SimRecord;
    expect(sim.store.remove('customers', customer.id as string)._d).not.toBe(0);
  });

  it('throws a ValidationError naming the problem for bad writes and unknown ids', () => {
    const bad = (() => {
      try {
        sim.store.write('customers', { company: null, email: 'not an e-mail' });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(isValidationError(bad)).toBe(true);
    expect((bad as Error).message).toContain('email');
    expect(() => sim.store.editProduct('10', {})).toThrow(/products: no record with id 10/);
    expect(() => sim.store.sell({ idCashRegister: '10' })).toThrow(/cash_registers/);
    expect(() => sim.store.sell({ items: 0 })).toThrow(/items/);
  });

  it('hands out copies: changing a returned record changes nothing stored', () => {
    const customer = sim.store.list('customers')[5] as SimRecord;
    const copy = sim.store.get('customers', customer.id as string) as SimRecord;
    copy.lastname = 'Změněno';
    expect(sim.store.get('customers', customer.id as string)?.lastname).toBe(customer.lastname);
  });

  it('counts records per collection, deleted ones included', () => {
    expect(sim.store.count('customers')).toBe(sim.store.list('customers').length);
    expect(sim.store.count('categories')).toBe(13);
  });
});

describe('activity mode', () => {
  it('keeps registers selling while clients read, and stops on request', async () => {
    const sim = await createSimulator({ seed: 8, activity: { ordersPerSecond: 200 } });
    try {
      const start = sim.store.count('orders');
      for (let i = 0; i < 200 && sim.store.count('orders') < start + 10; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(sim.store.count('orders')).toBeGreaterThanOrEqual(start + 10);
      expect(sim.store.count('order_details')).toBeGreaterThan(100);
      const latest = await api(sim).list('/orders?limit=5');
      expect((latest[0]?._v as number) >= Date.UTC(2026, 0, 1)).toBe(true);
      sim.store.stopActivity();
      expect(sim.store.activityRunning).toBe(false);
      const stopped = sim.store.count('orders');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(sim.store.count('orders')).toBe(stopped);
      expect(sim.store.activityError()).toBeUndefined();
      sim.store.startActivity({ ordersPerSecond: 100 });
      expect(sim.store.activityRunning).toBe(true);
      expect(() => sim.store.startActivity({ ordersPerSecond: 0 })).toThrow(/ordersPerSecond/);
    } finally {
      await sim.close();
    }
    expect(sim.store.activityRunning).toBe(false);
  });
});
