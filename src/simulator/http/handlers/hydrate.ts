/** Hydrations the service adds to records it returns. */
import type { SimRecord } from '../../record.js';
import type { SimStore } from '../../store/sim-store.js';

/**
 * A product as lists return it: with `__price_matrix_model` (its current price row, or null),
 * and `visible` false when it is deleted (spec: "products marked as deleted have visible false").
 */
export function hydrateProduct(store: SimStore, product: SimRecord): SimRecord {
  const out: SimRecord = { ...product };
  // Generated and committed products already obey this; a record planted with
  // `store.collection('products').put(...)` (as tests do) may not.
  if (out._d !== 0) out.visible = false;
  out.__price_matrix_model = store.prices.currentRow(product.id as string, store.now());
  return out;
}

/** An order with `__order_details`: its items, ascending by id. */
export function orderWithItems(store: SimStore, order: SimRecord): SimRecord {
  const out: SimRecord = { ...order };
  out.__order_details = store.items.itemsOf(order.id as string);
  return out;
}
