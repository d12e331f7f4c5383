/**
 * The simulated tenants the benchmarks sync. Not a benchmark itself: `bench/run.ts` runs only
 * files named `*.bench.ts`.
 */
import type { SizeOption } from '../src/simulator/size.js';

/** About 100,000 records in the shape of a real shop: mostly orders, their items and stock history. */
export const TENANT_100K: SizeOption = {
  shops: 5, warehouses: 6, cash_registers: 12, employees: 40, park_locations: 20, categories: 90,
  products: 3500, product_price_matrix: 4500, customers: 6000, shifts: 1700, orders: 11500,
  order_details: 29000, transactions: 11600, stockup: 460, stock_history: 32000,
};
