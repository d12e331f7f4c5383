import type { ZodType } from 'zod';
import type { CollectionName } from './collections.js';
import { cashRegisterSchemas } from './records/cash-registers.js';
import { categorySchemas } from './records/categories.js';
import { customerSchemas } from './records/customers.js';
import { employeeSchemas } from './records/employees.js';
import { orderDetailSchemas } from './records/order-details.js';
import { orderSchemas } from './records/orders.js';
import { parkLocationSchemas } from './records/park-locations.js';
import { priceMatrixSchemas } from './records/product-price-matrix.js';
import { productSchemas } from './records/products.js';
import { shiftSchemas } from './records/shifts.js';
import { shopSchemas } from './records/shops.js';
import { stockHistorySchemas } from './records/stock-history.js';
import { stockupSchemas } from './records/stockup.js';
import { transactionSchemas } from './records/transactions.js';
import { warehouseSchemas } from './records/warehouses.js';

/** A name that has schemas: every collection, plus `categories`. */
export type SchemaName = CollectionName | 'categories';

/**
 * Both faces of every resource, by collection name (plus `categories`):
 * - `read`: what the server sends. Lenient: keeps unknown fields (and `pgx`, `_u_dyn`), accepts
 *   nulls, never rejects a record for a field the spec does not describe; rejects a missing or
 *   invalid `id`, a `_v` that is not a non-negative integer, an id field holding something that is
 *   not an id, and a known field of a clearly wrong type. Fills `_d` (0) and `_t`. Parses the
 *   hydrations `__price_matrix_model` (products) and `__order_details` (orders).
 * - `write`: what a local edit must satisfy before it is stored and pushed. Required keys, types,
 *   enums, formats, `>= 0` and whole-number rules; fills every documented default; keeps unknown
 *   fields; drops `pgx`, `_u_dyn` and `__*` hydrations.
 * Both output every `id`, `id_*` and `id_c` as a canonical `Id` string.
 *
 * Prefer `parseRecord` and `validateWrite`, which report the project's ValidationError.
 */
export const schemas = {
  products: productSchemas,
  customers: customerSchemas,
  product_price_matrix: priceMatrixSchemas,
  shops: shopSchemas,
  cash_registers: cashRegisterSchemas,
  employees: employeeSchemas,
  park_locations: parkLocationSchemas,
  shifts: shiftSchemas,
  stock_history: stockHistorySchemas,
  stockup: stockupSchemas,
  transactions: transactionSchemas,
  warehouses: warehouseSchemas,
  orders: orderSchemas,
  order_details: orderDetailSchemas,
  categories: categorySchemas,
} satisfies Record<SchemaName, { read: ZodType; write: ZodType }>;

/** True when `value` names a resource of {@link schemas}. */
export function isSchemaName(value: unknown): value is SchemaName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(schemas, value);
}
