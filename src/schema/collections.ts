/** The 14 collections of the service that support list GET and POST. */
export const COLLECTIONS = [
  'products',
  'customers',
  'product_price_matrix',
  'shops',
  'cash_registers',
  'employees',
  'park_locations',
  'shifts',
  'stock_history',
  'stockup',
  'transactions',
  'warehouses',
  'orders',
  'order_details',
] as const;

/** Name of one of the service's collections, spelled as in its paths and `_t`. */
export type CollectionName = (typeof COLLECTIONS)[number];

/** True when `value` names one of the 14 collections. */
export function isCollectionName(value: unknown): value is CollectionName {
  return typeof value === 'string' && (COLLECTIONS as readonly string[]).includes(value);
}
