/**
 * Restocking before a sale: a register does not sell what its warehouse does not hold. When a
 * sale would take more of a product than the warehouse has, a delivery (a stock-up with one row
 * per product, whole cases and a case in reserve) is booked first, so the warehouse's stock of
 * every product stays at zero or above.
 */
import type { Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import type { StoreAccess } from './store-access.js';
import { writeDelivery, type Delivery, type StockLine, type StockPlace } from './stock-writes.js';

/** What a sale takes out of its warehouse: a product, how much, and its purchase price per unit (x1000). */
export interface Takeout {
  product: SimRecord;
  quantity: number;
  unitPrice: number;
}

/** A delivery booked before a sale. */
export type Restock = Delivery;

/** Pieces per case a delivery brings: kilograms for what is sold by weight, fewer of the goods. */
function caseOf(product: SimRecord): number {
  if (product.unit === 1) return 5;
  return product.item_type === 1 ? 6 : 12;
}

/**
 * Books a delivery of whatever `takeouts` need beyond the warehouse's stock, or nothing (null)
 * when the warehouse holds enough of each product.
 */
export function restockFor(store: StoreAccess, takeouts: readonly Takeout[], place: StockPlace): Restock | null {
  const needed = new Map<Id, Takeout & { total: number }>();
  for (const t of takeouts) {
    const id = String(t.product.id);
    const entry = needed.get(id);
    if (entry) entry.total += t.quantity;
    else needed.set(id, { ...t, total: t.quantity });
  }
  const deliveries: StockLine[] = [];
  for (const [id, t] of needed) {
    const missing = t.total - Math.max(0, store.stockOf(place.warehouseId, id));
    if (missing <= 0) continue;
    const size = caseOf(t.product);
    deliveries.push({ productId: id, quantity: (Math.ceil(missing / size) + 1) * size, unitPrice: t.unitPrice });
  }
  return deliveries.length === 0 ? null : writeDelivery(store, place, deliveries, 'Doplnění zásob');
}
