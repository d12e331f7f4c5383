import { dateCreatedField } from './record-schema.js';
import { looseRulesOf, readLoosely, type LooseRules, type NestedRules } from './loose-values.js';
import { cashRegisterFields } from './records/cash-registers.js';
import { categoryFields } from './records/categories.js';
import { customerFields } from './records/customers.js';
import { employeeFields } from './records/employees.js';
import { orderDetailFields } from './records/order-details.js';
import { orderFields } from './records/orders.js';
import { priceMatrixFields } from './records/product-price-matrix.js';
import { productFields } from './records/products.js';
import { shopFields } from './records/shops.js';
import { stockHistoryFields } from './records/stock-history.js';
import { stockupFields } from './records/stockup.js';
import { transactionFields } from './records/transactions.js';
import { warehouseFields } from './records/warehouses.js';
import type { SchemaName } from './schemas.js';

/** The loose rules of every resource (see `loose-values.ts`), from the same field tables as its schemas. */
const RULES: Record<SchemaName, LooseRules> = {
  products: looseRulesOf(productFields),
  customers: looseRulesOf(customerFields),
  product_price_matrix: looseRulesOf(priceMatrixFields),
  shops: looseRulesOf(shopFields),
  cash_registers: looseRulesOf(cashRegisterFields),
  employees: looseRulesOf(employeeFields),
  park_locations: looseRulesOf(dateCreatedField),
  shifts: looseRulesOf(dateCreatedField),
  stock_history: looseRulesOf(stockHistoryFields),
  stockup: looseRulesOf(stockupFields),
  transactions: looseRulesOf(transactionFields),
  warehouses: looseRulesOf(warehouseFields),
  orders: looseRulesOf(orderFields),
  order_details: looseRulesOf(orderDetailFields),
  categories: looseRulesOf(categoryFields),
};

/** The records a record carries: hydrations, and a category's children (read by their own rules). */
const NESTED: Partial<Record<SchemaName, NestedRules>> = {
  products: { __price_matrix_model: { rules: () => RULES.product_price_matrix, many: false } },
  orders: { __order_details: { rules: () => RULES.order_details, many: true } },
  categories: { children: { rules: () => RULES.categories, nested: () => NESTED.categories!, many: true } },
};

/** A record of `name` as a loosely typed backend wrote it, with its values made documented where lossless. */
export function readRecordLoosely(name: SchemaName, raw: unknown): unknown {
  return readLoosely(raw, RULES[name], NESTED[name]);
}

/** The figures of a warehouse_status report row (its ids are read as ids already). */
export const WAREHOUSE_STATUS_RULES: LooseRules = Object.fromEntries(
  ['unit', 'qty_cnt', 'qty_sum', 'qty_avg', 'date_updated', 'pp_avg', 'pp_unit'].map((name) => [name, { kind: 'number', emptyIsNull: true }]),
);
