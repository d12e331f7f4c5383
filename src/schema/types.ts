import type { Id } from '../ids/id.js';
import type { CollectionName } from './collections.js';
import type { CashRegister, CashRegisterInput, CashRegisterWrite } from './records/cash-registers.js';
import type { CategoryInput, CategoryNode, CategoryWrite } from './records/categories.js';
import type { Customer, CustomerInput, CustomerWrite } from './records/customers.js';
import type { Employee, EmployeeInput, EmployeeWrite } from './records/employees.js';
import type { OrderDetail, OrderDetailInput, OrderDetailWrite } from './records/order-details.js';
import type { Order, OrderInput, OrderWrite } from './records/orders.js';
import type { ParkLocation, ParkLocationInput, ParkLocationWrite } from './records/park-locations.js';
import type { PriceMatrixRow, PriceMatrixRowInput, PriceMatrixRowWrite } from './records/product-price-matrix.js';
import type { Product, ProductInput, ProductWrite } from './records/products.js';
import type { Shift, ShiftInput, ShiftWrite } from './records/shifts.js';
import type { Shop, ShopInput, ShopWrite } from './records/shops.js';
import type { StockHistoryRow, StockHistoryRowInput, StockHistoryRowWrite } from './records/stock-history.js';
import type { Stockup, StockupInput, StockupWrite } from './records/stockup.js';
import type { Transaction, TransactionInput, TransactionWrite } from './records/transactions.js';
import type { Warehouse, WarehouseInput, WarehouseWrite } from './records/warehouses.js';

/** Read type of every resource (what the server sends, after the read face), by name. */
export interface RecordTypes {
  products: Product;
  customers: Customer;
  product_price_matrix: PriceMatrixRow;
  shops: Shop;
  cash_registers: CashRegister;
  employees: Employee;
  park_locations: ParkLocation;
  shifts: Shift;
  stock_history: StockHistoryRow;
  stockup: Stockup;
  transactions: Transaction;
  warehouses: Warehouse;
  orders: Order;
  order_details: OrderDetail;
  categories: CategoryNode;
}

/** What an app may pass to save a record of each resource (write-face input), by name. */
export interface WriteInputTypes {
  products: ProductInput;
  customers: CustomerInput;
  product_price_matrix: PriceMatrixRowInput;
  shops: ShopInput;
  cash_registers: CashRegisterInput;
  employees: EmployeeInput;
  park_locations: ParkLocationInput;
  shifts: ShiftInput;
  stock_history: StockHistoryRowInput;
  stockup: StockupInput;
  transactions: TransactionInput;
  warehouses: WarehouseInput;
  orders: OrderInput;
  order_details: OrderDetailInput;
  categories: CategoryInput;
}

/** A validated write record of each resource (defaults filled, ids canonical), by name. */
export interface WriteRecordTypes {
  products: ProductWrite;
  customers: CustomerWrite;
  product_price_matrix: PriceMatrixRowWrite;
  shops: ShopWrite;
  cash_registers: CashRegisterWrite;
  employees: EmployeeWrite;
  park_locations: ParkLocationWrite;
  shifts: ShiftWrite;
  stock_history: StockHistoryRowWrite;
  stockup: StockupWrite;
  transactions: TransactionWrite;
  warehouses: WarehouseWrite;
  orders: OrderWrite;
  order_details: OrderDetailWrite;
  categories: CategoryWrite;
}

/** The read type of a collection's records: `RecordOf<'orders'>` is {@link Order}. */
export type RecordOf<C extends CollectionName> = RecordTypes[C];

/** What an app may pass to save a record of collection `C`. */
export type WriteInputOf<C extends CollectionName> = WriteInputTypes[C];

/** A validated write record of collection `C`. */
export type WriteRecordOf<C extends CollectionName> = WriteRecordTypes[C];

/**
 * The fields the schema of `T` names, without the index signature that keeps unknown fields at run
 * time: what an app writes is checked against these at compile time.
 */
export type KnownFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K] };

/**
 * What `save()` takes to create a record of collection `C`: every field the service needs, any
 * other field the schema names, and no field it does not (`save('customers', { phone: '1' })` does
 * not compile: the field is `phone_number`). `id` may be left out (the mirror generates it for the
 * tables that have a table id) or given.
 */
export type CreateInputOf<C extends CollectionName> = KnownFields<WriteInputOf<C>>;

/** What `save()` takes to change a record of collection `C` it holds: its `id` and any subset of the fields the schema names. */
export type PartialUpdateOf<C extends CollectionName> = { id: Id } & Partial<KnownFields<WriteInputOf<C>>>;

/** No field beyond those the schema names: the default of `SaveInputOf`'s `X`. */
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type -- the empty object is the point: an intersection with it adds no field
export type NoExtraFields = Record<never, never>;

/**
 * What `save()` takes for collection `C`: a create or a partial update. A field the schema does
 * not know is a compile error; an app that really writes one (a field the service added after
 * this library's schemas) names it as `X`: `mirror.save<'customers', { loyalty_tier: string }>('customers', { id, loyalty_tier: 'gold' })`.
 */
export type SaveInputOf<C extends CollectionName, X extends object = NoExtraFields> = (CreateInputOf<C> | PartialUpdateOf<C>) & X;

/**
 * A record of collection `C` as the mirror stores it: the read type of its schema (fields the
 * schema names typed, unknown fields the server sent kept under an index signature), its `id` and
 * `_v`. Categories are stored flat, one row each, without `children`.
 */
export type StoredRecordOf<C extends CollectionName | 'categories'> = (C extends CollectionName ? RecordOf<C> : { [K in keyof CategoryNode as K extends 'children' ? never : K]: CategoryNode[K] }) & { id: Id; _v: number };
