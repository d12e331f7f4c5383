/**
 * Stock-ups and stock history. Every stock movement is a stock_history row: deliveries belong to a
 * stock-up (positive `quanity`), sales take items out (negative, with `id_order`), inventory counts
 * correct either way; `id_record` is the product moved. What moves when is planned in
 * `stock-plan.ts` (stock never goes below zero). Rows are built on demand; the per-row facts the
 * warehouse report needs are kept compactly.
 */
import type { SimRecord } from '../record.js';
import type { Catalog } from './catalog.js';
import type { People } from './people.js';
import type { Places } from './places.js';
import type { Sales } from './sales.js';
import { RECEIPT, SALE, CORRECTION, planStock, type StockPlan } from './stock-plan.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';

/** `stock_history_type` codes used by the simulator (the spec does not name them). */
export const STOCK_HISTORY_TYPES = { sale: 1, stockup: 2, correction: 3 } as const;

/** Generated stock tables. */
export interface Stock {
  stockup: TableData;
  stock_history: TableData;
}

/** Generates stock-ups and stock history. */
export function generateStock(ctx: TenantContext, places: Places, people: People, catalog: Catalog, sales: Sales): Stock {
  const plan = planStock(ctx, places, catalog, sales);
  const stockups = new TableData('stockup', plan.stockupTimes, ctx.rng('stockup.ids'));
  const stockupCost = costOfStockups(ctx, catalog, plan);
  const history = new TableData('stock_history', plan.times, ctx.rng('stock_history.ids'));
  const sources: StockSources = { ctx, places, people, catalog, sales, plan, stockups, history };
  stockups.eager((u) => stockupRecord(sources, stockupCost, u));
  history.generated = { build: (h) => movementRecord(sources, h), peek: (h, field) => peekMovement(sources, h, field) };
  return { stockup: stockups, stock_history: history };
}

/** What the stock record builders read. */
interface StockSources {
  ctx: TenantContext;
  places: Places;
  people: People;
  catalog: Catalog;
  sales: Sales;
  plan: StockPlan;
  stockups: TableData;
  history: TableData;
}

/** What each stock-up's deliveries cost at purchase price (tax excl., x1000). */
function costOfStockups(ctx: TenantContext, catalog: Catalog, { kind, ref, product, quantity, times }: StockPlan): Float64Array {
  const stockupCost = new Float64Array(ctx.counts.stockup);
  for (let h = 0; h < times.length; h++) {
    if (kind[h] !== RECEIPT) continue;
    const u = ref[h] as number;
    stockupCost[u] = (stockupCost[u] as number) + (quantity[h] as number) * purchasePrice(catalog, product[h] as number, times[h] as number);
  }
  return stockupCost;
}

/** Stock-up u: a delivery into a warehouse, booked at a register. */
function stockupRecord({ ctx, places, people, plan, stockups }: StockSources, stockupCost: Float64Array, u: number): SimRecord {
  const { idC } = ctx;
  const r = plan.stockupRegister[u] as number;
  const w = plan.stockupWarehouse[u] as number;
  const sr = ctx.rng('stockup', u);
  const t = plan.stockupTimes[u] as number;
  return Object.assign(commonFields(stockups, u, idC), {
    id_cash_register: places.cash_registers.id(r),
    id_employee: people.employees.id(people.employeeAt(t, sr)),
    id_shop: places.shops.id(places.shopOfRegister(r)),
    id_warehouse: places.warehouses.id(w),
    stock_history_type: STOCK_HISTORY_TYPES.stockup,
    id_supplier: null,
    total_product_purchase_unit_price_tax_excl: Math.round(stockupCost[u] as number),
    date_stocked: t,
    note: sr.chance(0.2) ? 'Dodávka – kontrola kvality OK' : null,
    invoice_number: sr.chance(0.8) ? `FV-${new Date(t).getUTCFullYear()}-${String(u + 1).padStart(4, '0')}` : null,
  });
}

/** Stock movement h (a sale, a delivery or a correction), built on demand. */
function movementRecord({ ctx, places, people, catalog, sales, plan, stockups, history }: StockSources, h: number): SimRecord {
  const { idC } = ctx;
  const { kind, ref, product, quantity, warehouse, times } = plan;
  const k = kind[h] as number;
  const r = ref[h] as number;
  const p = product[h] as number;
  const t = times[h] as number;
  const register = plan.register[h] as number;
  let employee: number;
  let order = -1;
  if (k === SALE) {
    order = sales.orderOfDetail[r] as number;
    employee = sales.employeeOfOrder(order);
  } else {
    employee = people.employeeAt(t, ctx.rng('stock_history', h));
  }
  // The largest tables spell the common fields (see `commonFields`) in one literal: records built
  // on demand for every page keep one fast shape instead of growing from a small object.
  const record: SimRecord = {
    id: history.id(h),
    id_c: idC,
    _t: 'stock_history',
    _v: history.versions[h],
    _d: 0,
    pgx: `${idC}:${history.id(h)}`,
    date_created: t,
    id_employee: people.employees.id(employee),
    id_shop: places.shops.id(places.shopOfRegister(register)),
    id_warehouse: places.warehouses.id(warehouse[h] as number),
    id_record: catalog.products.id(p),
    id_cash_register: places.cash_registers.id(register),
    id_stockup: k === RECEIPT ? stockups.id(r) : null,
    id_supplier: null,
    id_order: order >= 0 ? sales.orders.id(order) : null,
    stock_type: 1,
    stock_history_type: k === SALE ? STOCK_HISTORY_TYPES.sale : k === RECEIPT ? STOCK_HISTORY_TYPES.stockup : STOCK_HISTORY_TYPES.correction,
    quanity: quantity[h],
    date_stocked: t,
    note: k === CORRECTION ? 'Inventura' : null,
    supplier_sku: k === RECEIPT ? `SUP-${String(p).padStart(5, '0')}` : null,
    product_purchase_unit_price_tax_excl: purchasePrice(catalog, p, t),
  };
  return record;
}

/** The fields of stock movement h that paging and reports filter on, without building the record. */
function peekMovement({ places, catalog, plan }: StockSources, h: number, field: string): unknown {
  const { product, quantity, warehouse, times } = plan;
  switch (field) {
    case 'id_record':
      return catalog.products.id(product[h] as number);
    case 'id_warehouse':
      return places.warehouses.id(warehouse[h] as number);
    case 'quanity':
      return quantity[h];
    case 'product_purchase_unit_price_tax_excl':
      return purchasePrice(catalog, product[h] as number, times[h] as number);
    case 'date_stocked':
      return times[h];
    case '_d':
      return 0;
    default:
      return undefined;
  }
}

/** Purchase price (tax excl., x1000) of product p at time t: 45 % of its selling price. */
function purchasePrice(catalog: Catalog, p: number, t: number): number {
  return Math.round((catalog.priceAt(p, t) * 0.45) / (catalog.taxRateOf[p] as number));
}
