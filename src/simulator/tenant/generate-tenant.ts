/**
 * The seeded tenant: every table generated from (seed, clock start, counts), plus the few facts the
 * simulator needs when registers keep selling (where each shop keeps stock, each register's open
 * shift and last receipt number, what each shop sells). Same inputs, same data, byte for byte.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import type { SimTable } from '../sim-ids.js';
import type { SizeCounts } from '../size.js';
import { generateCatalog } from './catalog.js';
import { generateCategories } from './categories.js';
import { generatePeople } from './people.js';
import { generatePlaces } from './places.js';
import { generateSales } from './sales.js';
import { SHOP_PROFILES, type ShopKind } from './shop-profiles.js';
import { generateStock } from './stock.js';
import type { TableData } from './table-data.js';
import { tenantContext } from './tenant-context.js';
import { HISTORY_SPAN } from './timeline.js';

/** A generated tenant. */
export interface Tenant {
  /** The tenant id (`id_c`). */
  idC: Id;
  /** Every table, the 14 collections and categories. */
  tables: Record<SimTable, TableData>;
  /** Warehouse id where each shop (by id) keeps its stock. */
  warehouseOfShop: Map<Id, Id>;
  /** Open shift id of each register (by id). */
  openShiftOf: Map<Id, Id>;
  /** The last receipt number each register (by id) printed. */
  lastReceiptOf: Map<Id, number>;
  /** What each shop (by id) sells and how large its orders get. */
  shopSales: Map<Id, ShopSales>;
}

/** What one shop sells: its kind, the products of its kind's profile (oldest first), its largest order. */
export interface ShopSales {
  kind: ShopKind;
  products: readonly Id[];
  /** The largest order total, tax included, in CZK x 1000. */
  maxOrderTotal: number;
}

/** Generates the tenant for a seed, the clock's start and record counts. */
export function generateTenant(seed: number, clockStart: number, counts: SizeCounts): Tenant {
  const ctx = tenantContext(seed, clockStart, HISTORY_SPAN, counts);
  const places = generatePlaces(ctx);
  const people = generatePeople(ctx);
  const categories = generateCategories(ctx);
  const catalog = generateCatalog(ctx, categories);
  const sales = generateSales(ctx, places, people, catalog);
  const stock = generateStock(ctx, places, people, catalog, sales);
  const tables: Record<CollectionName, TableData> & { categories: TableData } = {
    products: catalog.products,
    customers: people.customers,
    product_price_matrix: catalog.product_price_matrix,
    shops: places.shops,
    cash_registers: places.cash_registers,
    employees: people.employees,
    park_locations: places.park_locations,
    shifts: sales.shifts,
    stock_history: stock.stock_history,
    stockup: stock.stockup,
    transactions: sales.transactions,
    warehouses: places.warehouses,
    orders: sales.orders,
    order_details: sales.order_details,
    categories: categories.table,
  };
  const warehouseOfShop = new Map<Id, Id>();
  for (let s = 0; s < counts.shops; s++) warehouseOfShop.set(places.shops.id(s), places.warehouses.id(places.warehouseOfShop(s)));
  const openShiftOf = new Map<Id, Id>();
  const lastReceiptOf = new Map<Id, number>();
  for (let r = 0; r < counts.cash_registers; r++) {
    openShiftOf.set(places.cash_registers.id(r), sales.shifts.id(sales.openShiftOf(r)));
    lastReceiptOf.set(places.cash_registers.id(r), sales.lastReceiptOf(r));
  }
  const shopSales = new Map<Id, ShopSales>();
  for (let s = 0; s < counts.shops; s++) {
    const kind = places.kindOfShop(s);
    const products = sales.pickerOfShop(s).products.map((p) => catalog.products.id(p));
    shopSales.set(places.shops.id(s), { kind, products, maxOrderTotal: SHOP_PROFILES[kind].maxOrderTotal });
  }
  return { idC: ctx.idC, tables, warehouseOfShop, openShiftOf, lastReceiptOf, shopSales };
}
