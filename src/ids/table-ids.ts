import { ValidationError } from '../errors/index.js';

/**
 * Table ids used by the service's default id generation (spec, "Id composition"). Only these
 * ten tables have one; ids of the other collections are made by the service.
 */
export const TABLE_IDS = {
  customers: 2,
  employees: 4,
  order_details: 6,
  orders: 7,
  products: 11,
  product_price_matrix: 12,
  stock_history: 16,
  stockup: 18,
  transactions: 22,
  warehouses: 25,
} as const;

/** Name of a table that has a documented table id. */
export type TableName = keyof typeof TABLE_IDS;

/** Largest table id: the composition keeps 6 bits for it. */
export const MAX_TABLE_ID = 63;

/**
 * The table id for a table name of {@link TABLE_IDS} or an explicit table id, checked to fit
 * the 6 bits of the composition (an integer 0..63). Throws a {@link ValidationError} on `table`
 * naming the bad value otherwise; `caller` prefixes the message.
 */
export function toTableId(table: unknown, caller: string): number {
  if (typeof table === 'string' && Object.prototype.hasOwnProperty.call(TABLE_IDS, table)) {
    return TABLE_IDS[table as TableName];
  }
  if (typeof table === 'number' && Number.isInteger(table) && table >= 0 && table <= MAX_TABLE_ID) return table;
  const message =
    typeof table === 'number'
      ? `table id ${table} is not an integer in 0..${MAX_TABLE_ID}`
      : `unknown table ${typeof table === 'string' ? JSON.stringify(table) : typeof table}: expected one of ${Object.keys(TABLE_IDS).join(', ')} or a table id 0..${MAX_TABLE_ID}`;
  throw new ValidationError(`${caller}: ${message}`, { issues: [{ path: ['table'], message }] });
}
