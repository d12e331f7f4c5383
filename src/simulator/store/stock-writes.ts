/**
 * The stock records the registers book live, written one way whoever books them: a delivery (a
 * stock-up and one stock history row per product, see `move-stock.ts` and `restock.ts`), a
 * write-off or correction (a row alone), and a sale's movement out of the warehouse (`sell.ts`).
 */
import type { Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import { STOCK_HISTORY_TYPES } from '../tenant/stock.js';
import type { StoreAccess } from './store-access.js';

/** Where and by whom stock moves: the warehouse, and the shop, register and employee that book it. */
export interface StockPlace {
  warehouseId: Id;
  shopId: Id;
  registerId: Id;
  employeeId: Id;
}

/** One product's movement: how much (negative out of the warehouse) at what purchase price per unit (tax excl., x1000; null when unknown). */
export interface StockLine {
  productId: Id;
  quantity: number;
  unitPrice: number | null;
}

/** A delivery as booked: its stock-up and a row per product. */
export interface Delivery {
  stockup: SimRecord;
  stockHistory: SimRecord[];
}

/** Books a delivery of `lines` into the place's warehouse: a stock-up whose total is their purchase price (null when a price is unknown), and a row per line. */
export function writeDelivery(store: StoreAccess, place: StockPlace, lines: readonly StockLine[], note: string | null): Delivery {
  const now = store.now();
  const total = lines.every((l) => l.unitPrice !== null) ? lines.reduce((sum, l) => sum + Math.round(l.quantity * (l.unitPrice as number)), 0) : null;
  const stockup = store.write('stockup', {
    _t: 'stockup',
    id_cash_register: place.registerId,
    id_employee: place.employeeId,
    id_shop: place.shopId,
    id_warehouse: place.warehouseId,
    stock_history_type: STOCK_HISTORY_TYPES.stockup,
    id_supplier: null,
    total_product_purchase_unit_price_tax_excl: total,
    date_stocked: now,
    note,
    invoice_number: null,
  });
  const stockHistory = lines.map((line) => writeStockRow(store, place, line, { type: 'stockup', idStockup: stockup.id as Id, note }, now));
  return { stockup, stockHistory };
}

/** What a stock history row belongs to: a delivery's stock-up, a sale's order, or neither (a correction). */
export type StockCause = { type: 'stockup'; idStockup: Id; note: string | null } | { type: 'sale'; idOrder: Id } | { type: 'correction'; note: string | null };

/** Writes one stock history row of `line` at the place, stamped `now`. */
export function writeStockRow(store: StoreAccess, place: StockPlace, line: StockLine, cause: StockCause, now: number): SimRecord {
  return store.write('stock_history', {
    _t: 'stock_history',
    id_employee: place.employeeId,
    id_shop: place.shopId,
    id_warehouse: place.warehouseId,
    id_record: line.productId,
    id_cash_register: place.registerId,
    id_stockup: cause.type === 'stockup' ? cause.idStockup : null,
    id_order: cause.type === 'sale' ? cause.idOrder : null,
    stock_type: 1,
    stock_history_type: STOCK_HISTORY_TYPES[cause.type],
    quanity: line.quantity,
    date_stocked: now,
    note: cause.type === 'sale' ? null : cause.note,
    product_purchase_unit_price_tax_excl: line.unitPrice,
  });
}
