/**
 * Stock-ups and stock history. Every stock movement is a stock_history row: receipts belong to a
 * stock-up (positive `quanity`), sales take items out (negative, with `id_order`), and without
 * stock-ups corrections stand in for receipts. `id_record` is the product moved. Rows are built
 * on demand; the per-row facts the warehouse report needs are kept compactly.
 */
import type { SimRecord } from '../record.js';
import type { Catalog } from './catalog.js';
import type { People } from './people.js';
import type { Places } from './places.js';
import type { Sales } from './sales.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';
import { DAY, distribute, spreadTimes, strictlyIncreasing } from './timeline.js';

/** `stock_history_type` codes used by the simulator (the spec does not name them). */
export const STOCK_HISTORY_TYPES = { sale: 1, stockup: 2, correction: 3 } as const;

/** Generated stock tables. */
export interface Stock {
  stockup: TableData;
  stock_history: TableData;
}

const SALE = 0;
const RECEIPT = 1;
const CORRECTION = 2;

/** Generates stock-ups and stock history. */
export function generateStock(ctx: TenantContext, places: Places, people: People, catalog: Catalog, sales: Sales): Stock {
  const { counts, idC } = ctx;
  const U = counts.stockup;
  const Hs = counts.stock_history;
  const D = counts.order_details;
  const rng = ctx.rng('stock.plan');

  const stockupTimes = spreadTimes(U, ctx.from + DAY, ctx.to - DAY, ctx.rng('stockup.times'));
  const stockups = new TableData('stockup', stockupTimes, ctx.rng('stockup.ids'));
  const stockupRegister = Int32Array.from({ length: U }, () => rng.int(0, counts.cash_registers - 1));

  // Split rows between sales and receipts (or corrections when there are no stock-ups).
  let others = D === 0 ? Hs : Math.min(Hs, U > 0 ? Math.max(U, Math.round(Hs * 0.25)) : Math.round(Hs * 0.25));
  const salesRows = Math.min(D, Hs - others);
  others = Hs - salesRows;

  const otherTime = new Float64Array(others);
  const otherOwner = new Int32Array(others).fill(-1);
  if (U > 0) {
    const starts = distribute(others, U, rng);
    for (let u = 0; u < U; u++) {
      for (let j = starts[u] as number; j < (starts[u + 1] as number); j++) {
        otherTime[j] = (stockupTimes[u] as number) + 1 + (j - (starts[u] as number));
        otherOwner[j] = u;
      }
    }
  } else {
    otherTime.set(spreadTimes(others, ctx.from + DAY, ctx.to - DAY, ctx.rng('stock_history.corrections')));
  }
  const saleTime = (k: number): number => sales.order_details.times[Math.floor((k * D) / salesRows)] as number;

  // Merge the two time-ordered streams.
  const kind = new Uint8Array(Hs);
  const ref = new Int32Array(Hs);
  const product = new Int32Array(Hs);
  const quantity = new Float32Array(Hs);
  const warehouse = new Int32Array(Hs);
  const times = new Float64Array(Hs);
  const stockupCost = new Float64Array(U);
  for (let h = 0, a = 0, b = 0; h < Hs; h++) {
    const takeSale = a < salesRows && (b >= others || saleTime(a) <= (otherTime[b] as number));
    if (takeSale) {
      const d = Math.floor((a * D) / salesRows);
      const i = sales.orderOfDetail[d] as number;
      kind[h] = SALE;
      ref[h] = d;
      product[h] = sales.productOfDetail[d] as number;
      quantity[h] = -(sales.quantityOfDetail[d] as number);
      warehouse[h] = places.warehouseOfShop(places.shopOfRegister(sales.registerOfOrder(i)));
      times[h] = saleTime(a++);
    } else {
      const t = otherTime[b] as number;
      const u = otherOwner[b++] as number;
      const p = catalog.productAt(t, rng);
      kind[h] = u >= 0 ? RECEIPT : CORRECTION;
      ref[h] = u;
      product[h] = p;
      quantity[h] = u >= 0 ? rng.int(6, 48) : rng.chance(0.8) ? -rng.int(1, 3) : rng.int(1, 3);
      warehouse[h] = u >= 0 ? places.warehouseOfShop(places.shopOfRegister(stockupRegister[u] as number)) : rng.int(0, counts.warehouses - 1);
      times[h] = t;
      if (u >= 0) stockupCost[u] = (stockupCost[u] as number) + (quantity[h] as number) * purchasePrice(catalog, p, t);
    }
  }
  strictlyIncreasing(times);
  const history = new TableData('stock_history', times, ctx.rng('stock_history.ids'));

  stockups.eager((u): SimRecord => {
    const r = stockupRegister[u] as number;
    const shop = places.shopOfRegister(r);
    const sr = ctx.rng('stockup', u);
    const t = stockupTimes[u] as number;
    return Object.assign(commonFields(stockups, u, idC), {
      id_cash_register: places.cash_registers.id(r),
      id_employee: people.employees.id(people.employeeAt(t, sr)),
      id_shop: places.shops.id(shop),
      id_warehouse: places.warehouses.id(places.warehouseOfShop(shop)),
      stock_history_type: STOCK_HISTORY_TYPES.stockup,
      id_supplier: null,
      total_product_purchase_unit_price_tax_excl: Math.round(stockupCost[u] as number),
      date_stocked: t,
      note: sr.chance(0.2) ? 'Dodávka – kontrola kvality OK' : null,
      invoice_number: sr.chance(0.8) ? `FV-${new Date(t).getUTCFullYear()}-${String(u + 1).padStart(4, '0')}` : null,
    });
  });

  const warehouseId = (h: number): string => places.warehouses.id(warehouse[h] as number);
  history.generated = {
    build(h) {
      const k = kind[h] as number;
      const r = ref[h] as number;
      const p = product[h] as number;
      const t = times[h] as number;
      let register: number;
      let employee: number;
      let order = -1;
      if (k === SALE) {
        order = sales.orderOfDetail[r] as number;
        register = sales.registerOfOrder(order);
        employee = sales.employeeOfOrder(order);
      } else if (k === RECEIPT) {
        register = stockupRegister[r] as number;
        employee = people.employeeAt(t, ctx.rng('stock_history', h));
      } else {
        const rng = ctx.rng('stock_history', h);
        register = rng.int(0, counts.cash_registers - 1);
        employee = people.employeeAt(t, rng);
      }
      // The largest tables spell the common fields (see `commonFields`) in one literal: records built
      // on demand for every page keep one fast shape instead of growing from a small object.
      const record: SimRecord = {
        id: history.id(h),
        id_c: idC,
        _t: 'stock_history',
        _v: history.versions[h] as number,
        _d: 0,
        pgx: `${idC}:${history.id(h)}`,
        date_created: t,
        id_employee: people.employees.id(employee),
        id_shop: places.shops.id(places.shopOfWarehouse(warehouse[h] as number)),
        id_warehouse: warehouseId(h),
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
    },
    peek(h, field) {
      switch (field) {
        case 'id_record':
          return catalog.products.id(product[h] as number);
        case 'id_warehouse':
          return warehouseId(h);
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
    },
  };
  return { stockup: stockups, stock_history: history };
}

/** Purchase price (tax excl., x1000) of product p at time t: 45 % of its selling price. */
function purchasePrice(catalog: Catalog, p: number, t: number): number {
  return Math.round((catalog.priceAt(p, t) * 0.45) / (catalog.taxRateOf[p] as number));
}
