import type { CollectionName } from '../schema/collections.js';

/**
 * The order in which collections are pushed: a record goes out after the records it refers to
 * (spec: "Relation `id` fields"), so a server, or another client, that reads a new child never
 * meets a parent that is not there yet. Shops, registers, park locations, employees and shifts
 * first; then warehouses, customers and products; prices after products; orders after all they
 * reference; order items, transactions and stock-ups after orders; stock history last (it
 * references stock-ups and orders).
 */
export const PUSH_ORDER: readonly CollectionName[] = [
  'shops',
  'cash_registers',
  'park_locations',
  'employees',
  'shifts',
  'warehouses',
  'customers',
  'products',
  'product_price_matrix',
  'orders',
  'order_details',
  'transactions',
  'stockup',
  'stock_history',
];

/** The given collections (all when none are given), without repeats, in {@link PUSH_ORDER}. */
export function pushOrder(collections?: readonly CollectionName[]): CollectionName[] {
  if (!collections) return [...PUSH_ORDER];
  const wanted = new Set(collections);
  return PUSH_ORDER.filter((c) => wanted.has(c));
}
