import { afterEach, describe, expect, it } from 'vitest';
import { isValidationError } from '../../src/errors/index.js';
import { STOCK_HISTORY_TYPES, createSimulator, type SimRecord, type Simulator } from '../../src/simulator/index.js';
import { snapshot } from './tenant-integrity.js';
import { negativeStockProblems, orderFitProblems, receiptProblems } from './tenant-realism.js';

describe('live sales', () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('numbers each register’s receipts on from its own last one', async () => {
    sim = await createSimulator({ size: 'tiny', seed: 21 });
    const [a, b] = sim.store.list('cash_registers') as [SimRecord, SimRecord];
    const last = (register: SimRecord) =>
      Math.max(0, ...sim!.store.list('orders').filter((o) => o.id_cash_register === register.id).map((o) => Number(o.order_serial_number)));
    const [lastA, lastB] = [last(a), last(b)];
    const first = sim.store.sell({ idCashRegister: String(a.id) });
    const other = sim.store.sell({ idCashRegister: String(b.id) });
    const second = sim.store.sell({ idCashRegister: String(a.id) });
    expect([first.order.order_serial_number, second.order.order_serial_number, other.order.order_serial_number]).toEqual([lastA + 1, lastA + 2, lastB + 1]);
    expect([first.order.invoice_number, second.order.invoice_number]).toEqual([lastA + 1, lastA + 2]);
    expect(receiptProblems(snapshot(sim))).toEqual([]);
  });

  it('sells in each shop what its kind sells, within what such a shop takes for one order', async () => {
    sim = await createSimulator({ size: 'small', seed: 7 });
    for (let i = 0; i < 300; i++) sim.store.sell();
    expect(orderFitProblems(snapshot(sim)).slice(0, 5)).toEqual([]);
  });

  it('restocks a product the warehouse has run out of before selling it, so stock never goes below zero', async () => {
    sim = await createSimulator({ size: 'tiny', seed: 33 });
    const register = sim.store.list('cash_registers')[0] as SimRecord;
    const warehouseId = sim.store.warehouseOfShop(String(register.id_shop))!;
    // Empty the shop's warehouse: everything it sells next has to be delivered first.
    for (const [productId, totals] of sim.store.ledger.warehouse(warehouseId)) {
      if (totals.sum > 0) sim.store.moveStock({ idProduct: productId, idWarehouse: warehouseId, quantity: -totals.sum });
    }
    const sale = sim.store.sell({ idCashRegister: String(register.id), items: 3 });
    expect(sale.restock).not.toBeNull();
    expect(sale.restock?.stockup).toMatchObject({ id_warehouse: warehouseId, id_cash_register: register.id });
    const delivered = new Set(sale.restock?.stockHistory.map((h) => h.id_record));
    for (const item of sale.details) expect(delivered.has(item.id_product), String(item.product_name)).toBe(true);
    for (const h of sale.restock?.stockHistory ?? []) {
      expect(h).toMatchObject({ id_stockup: sale.restock?.stockup.id, stock_history_type: STOCK_HISTORY_TYPES.stockup });
      expect(h._v as number).toBeLessThan(sale.order._v as number);
    }
    for (let i = 0; i < 200; i++) sim.store.sell();
    expect(negativeStockProblems(snapshot(sim)).slice(0, 5)).toEqual([]);
  });

  it('refuses to write off more than the warehouse holds', async () => {
    sim = await createSimulator({ size: 'tiny', seed: 5 });
    const warehouse = sim.store.list('warehouses')[1] as SimRecord;
    const [productId, totals] = [...sim.store.ledger.warehouse(String(warehouse.id))].find(([, t]) => t.sum > 0)!;
    const error = (() => {
      try {
        sim.store.moveStock({ idProduct: productId, idWarehouse: String(warehouse.id), quantity: -(totals.sum + 1) });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isValidationError(error)).toBe(true);
    expect((error as Error).message).toContain(`which holds ${totals.sum}`);
    expect(sim.store.ledger.warehouse(String(warehouse.id)).get(productId)?.sum).toBe(totals.sum);
  });
});
