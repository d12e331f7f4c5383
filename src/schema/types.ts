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
