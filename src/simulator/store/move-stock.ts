/**
 * A stock movement outside a sale: a positive quantity is a delivery (a stock-up with one row), a
 * negative one a write-off or inventory correction (a row alone), which can take out at most what
 * the warehouse holds: stock never goes below zero.
 */
import { ValidationError } from '../../errors/index.js';
import type { Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import { writeDelivery, writeStockRow, type StockLine, type StockPlace } from './stock-writes.js';
import type { StoreAccess } from './store-access.js';

/** What to move. */
export interface MoveStockOptions {
  idProduct: Id;
  idWarehouse: Id;
  /** Non-zero; positive receives goods, negative takes them out. */
  quantity: number;
  /** Purchase price per unit, tax excl. (x1000); null (the default) when unknown. */
  unitPrice?: number | null;
  note?: string | null;
}

/** The records a movement wrote. */
export interface StockMove {
  stockup: SimRecord | null;
  stockHistory: SimRecord;
}

/** Writes a stock movement. */
export function moveStock(store: StoreAccess, opts: MoveStockOptions): StockMove {
  if (typeof opts.quantity !== 'number' || !Number.isFinite(opts.quantity) || opts.quantity === 0) {
    throw new ValidationError(`moveStock: quantity must be a non-zero number, got ${String(opts.quantity)}`, { issues: [{ path: ['quantity'], message: 'must be a non-zero number' }] });
  }
  const product = store.require('products', opts.idProduct);
  store.require('warehouses', opts.idWarehouse);
  const held = store.stockOf(opts.idWarehouse, opts.idProduct);
  if (opts.quantity < 0 && -opts.quantity > held) {
    throw new ValidationError(`moveStock: cannot take ${-opts.quantity} of product ${opts.idProduct} out of warehouse ${opts.idWarehouse}, which holds ${Math.max(0, held)}`, {
      issues: [{ path: ['quantity'], message: `more than the ${Math.max(0, held)} the warehouse holds` }],
    });
  }
  const register = registerFor(store, opts.idWarehouse);
  const place: StockPlace = {
    warehouseId: opts.idWarehouse,
    shopId: String(register.id_shop ?? '0'),
    registerId: register.id as Id,
    employeeId: store.collection('employees').recordAt(0).id as Id,
  };
  const line: StockLine = { productId: product.id as Id, quantity: opts.quantity, unitPrice: opts.unitPrice ?? null };
  const note = opts.note ?? null;
  if (opts.quantity > 0) {
    const { stockup, stockHistory } = writeDelivery(store, place, [line], note);
    return { stockup, stockHistory: stockHistory[0] as SimRecord };
  }
  return { stockup: null, stockHistory: writeStockRow(store, place, line, { type: 'correction', note }, store.now()) };
}

/** A register of a shop that keeps stock in the warehouse, else the first register. */
function registerFor(store: StoreAccess, warehouseId: Id): SimRecord {
  const registers = store.collection('cash_registers');
  for (let pos = 0; pos < registers.count; pos++) {
    const register = registers.recordAt(pos);
    if (store.warehouseOfShop(String(register.id_shop)) === warehouseId) return register;
  }
  return registers.recordAt(0);
}
