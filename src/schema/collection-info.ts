import { TABLE_IDS, type TableName } from '../ids/table-ids.js';
import type { CollectionName } from './collections.js';

/** What the rest of the library needs to know about one collection, beyond its schemas. */
export interface CollectionInfo<C extends CollectionName = CollectionName> {
  /** The collection's name, as in its path. */
  readonly name: C;
  /** The fixed `_t` literal of its records (the table name). */
  readonly _t: C;
  /** The spec's table id used by default id generation, or `undefined` when the spec gives none. */
  readonly tableId: number | undefined;
  /** True when an app cannot meaningfully write the collection. None is, per the spec. */
  readonly readOnly: boolean;
  /**
   * True when a record cannot be created offline: without a table id the client cannot compose
   * an id, so a create needs an online round trip (the server generates the id).
   */
  readonly createOnlineOnly: boolean;
  /** Direction the service traverses by default (`backward`: newest first). */
  readonly defaultDirection: 'forward' | 'backward';
  /** True when records carry `date_created` (the spec's shapes for shops and cash registers do not). */
  readonly hasDateCreated: boolean;
  /** Largest `limit` the list endpoint accepts. */
  readonly maxLimit: number;
  /** `limit` the service uses when none is sent. */
  readonly defaultLimit: number;
}

/**
 * One entry: the spec's general rules, with the collection's own exceptions in `overrides`. The
 * table id comes from {@link TABLE_IDS} (`undefined` for a collection without one).
 */
function info<C extends CollectionName>(
  name: C,
  overrides: Partial<Pick<CollectionInfo, 'defaultDirection' | 'hasDateCreated' | 'maxLimit' | 'defaultLimit'>> = {},
): CollectionInfo<C> {
  const tableId = Object.prototype.hasOwnProperty.call(TABLE_IDS, name) ? TABLE_IDS[name as TableName] : undefined;
  return {
    name,
    _t: name,
    tableId,
    readOnly: false,
    createOnlineOnly: tableId === undefined,
    defaultDirection: 'forward', // the spec leaves it unstated for other tables; we always send it
    hasDateCreated: true,
    maxLimit: 400,
    defaultLimit: 100,
    ...overrides,
  };
}

/**
 * Facts about every collection: `_t`, table id (spec "Id composition"), whether creates
 * need the network, default traversal direction, and page limits (orders: default 250, max 2000).
 */
export const COLLECTION_INFO: { readonly [C in CollectionName]: CollectionInfo<C> } = {
  products: info('products'),
  customers: info('customers'),
  product_price_matrix: info('product_price_matrix'),
  shops: info('shops', { hasDateCreated: false }),
  cash_registers: info('cash_registers', { hasDateCreated: false }),
  employees: info('employees'),
  park_locations: info('park_locations'),
  shifts: info('shifts', { defaultDirection: 'backward' }),
  stock_history: info('stock_history'),
  stockup: info('stockup'),
  transactions: info('transactions', { defaultDirection: 'backward' }),
  warehouses: info('warehouses'),
  orders: info('orders', { defaultDirection: 'backward', maxLimit: 2000, defaultLimit: 250 }),
  order_details: info('order_details'),
};
