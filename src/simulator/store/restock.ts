/**
 * Restocking before a sale: a register does not sell what its warehouse does not hold. When a
 * sale would take more of a product than the warehouse has, a delivery (a stock-up with one row
 * per product, whole cases and a case in reserve) is booked first, so the warehouse's stock of
 * every product stays at zero or above.
 */
import type { Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import { STOCK_HISTORY_TYPES } from '../tenant/stock.js';
import type { StoreAccess } from './store-access.js';

/** What a sale takes out of its warehouse: a product, how much, and its purchase price per unit (x1000). */
export interface Takeout {
  product: SimRecord;
  quantity: number;
  unitPrice: number;
}

/** Where and by whom a delivery is booked. */
export interface RestockPlace {
  warehouseId: Id;
  shopId: Id;
  registerId: Id;
  employeeId: Id;
}

/** A delivery booked before a sale. */
export interface Restock {
  stockup: SimRecord;
  stockHistory: SimRecord[];
}

/** Pieces per case a delivery brings: kilograms for what is sold by weight, fewer of the goods. */
function caseOf(product: SimRecord): number {
  if (product.unit === 1) return 5;
  return product.item_type === 1 ? 6 : 12;
}

/**
 * Books a delivery of whatever `takeouts` need beyond the warehouse's stock, or nothing (null)
 * when the warehouse holds enough of each product.
 */
export function restockFor(store: StoreAccess, takeouts: readonly Takeout[], place: RestockPlace): Restock | null {
  const needed = new Map<Id, Takeout & { total: number }>();
  for (const t of takeouts) {
    const id = String(t.product.id);
    const entry = needed.get(id);
    if (entry) entry.total += t.quantity;
    else needed.set(id, { ...t, total: t.quantity });
  }
  const deliveries: { product: SimRecord; amount: number; unitPrice: number }[] = [];
  for (const [id, t] of needed) {
    const missing = t.total - Math.max(0, store.stockOf(place.warehouseId, id));
    if (missing <= 0) continue;
    const size = caseOf(t.product);
    deliveries.push({ product: t.product, amount: (Math.ceil(missing / size) + 1) * size, unitPrice: t.unitPrice });
  }
  if (deliveries.length === 0) return null;
  const now = store.now();
  const stockup = store.write('stockup', {
    _t: 'stockup',
    id_cash_register: place.registerId,
    id_employee: place.employeeId,
    id_shop: place.shopId,
    id_warehouse: place.warehouseId,
    stock_history_type: STOCK_HISTORY_TYPES.stockup,
    id_supplier: null,
    total_product_purchase_unit_price_tax_excl: deliveries.reduce((sum, d) => sum + Math.round(d.amount * d.unitPrice), 0),
    date_stocked: now,
    note: 'Doplnění zásob',
    invoice_number: null,
  });
  const stockHistory = deliveries.map((d) =>
    store.write('stock_history', {
      _t: 'stock_history',
      id_employee: place.employeeId,
      id_shop: place.shopId,
      id_warehouse: place.warehouseId,
      id_record: d.product.id,
      id_cash_register: place.registerId,
      id_stockup: stockup.id,
      stock_type: 1,
      stock_history_type: STOCK_HISTORY_TYPES.stockup,
      quanity: d.amount,
      date_stocked: now,
      product_purchase_unit_price_tax_excl: d.unitPrice,
    }),
  );
  return { stockup, stockHistory };
}
