/**
 * A stock movement outside a sale: a positive quantity is a delivery (a stock-up with one row), a
 * negative one a write-off or inventory correction (a row alone), which can take out at most what
 * the warehouse holds: stock never goes below zero.
 */
import { ValidationError } from '../../errors/index.js';
import type { Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import { STOCK_HISTORY_TYPES } from '../tenant/stock.js';
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
  const employees = store.collection('employees');
  const employee = employees.recordAt(0);
  const shopId = String(register.id_shop ?? '0');
  const now = store.now();
  const unitPrice = opts.unitPrice === undefined ? null : opts.unitPrice;
  const stockup =
    opts.quantity > 0
      ? store.write('stockup', {
          _t: 'stockup',
          id_cash_register: register.id,
          id_employee: employee.id,
          id_shop: shopId,
          id_warehouse: opts.idWarehouse,
          stock_history_type: STOCK_HISTORY_TYPES.stockup,
          id_supplier: null,
          total_product_purchase_unit_price_tax_excl: unitPrice === null ? null : Math.round(unitPrice * opts.quantity),
          date_stocked: now,
          note: opts.note ?? null,
          invoice_number: null,
        })
      : null;
  const stockHistory = store.write('stock_history', {
    _t: 'stock_history',
    id_employee: employee.id,
    id_shop: shopId,
    id_warehouse: opts.idWarehouse,
    id_record: product.id,
    id_cash_register: register.id,
    id_stockup: stockup ? stockup.id : null,
    stock_type: 1,
    stock_history_type: stockup ? STOCK_HISTORY_TYPES.stockup : STOCK_HISTORY_TYPES.correction,
    quanity: opts.quantity,
    date_stocked: now,
    note: opts.note ?? null,
    product_purchase_unit_price_tax_excl: unitPrice,
  });
  return { stockup, stockHistory };
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
