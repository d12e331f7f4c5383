/**
 * `POST reports/generic/warehouse_status`: one row per product that has stock movements in the
 * warehouse, in the spec's row shape, wrapped as `{ data, source }`. Quantities come from the
 * stock ledger; names and codes from the current product, category and warehouse records.
 */
import { compareIds, type Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import type { SimStore } from '../store/sim-store.js';
import type { StockLedger } from './stock-ledger.js';

/** The value of `source` in warehouse_status answers. */
const WAREHOUSE_STATUS_SOURCE = 'warehouse_status';

/** Rows of the warehouse status report, ascending by product id. */
export function warehouseStatus(store: SimStore, ledger: StockLedger, warehouse: SimRecord): { data: SimRecord[]; source: string } {
  const warehouseId = warehouse.id as Id;
  const rows: SimRecord[] = [];
  const products = store.collection('products');
  const categories = store.collection('categories');
  for (const [productId, t] of ledger.warehouse(warehouseId)) {
    const product = products.get(productId);
    const categoryId = typeof product?.id_category === 'string' ? product.id_category : '0';
    const category = categoryId === '0' ? undefined : categories.get(categoryId);
    rows.push({
      id_c: store.idC,
      id_warehouse: warehouseId,
      id_product: productId,
      id_category: categoryId,
      wname: String(warehouse.name ?? ''),
      pname: String(product?.name ?? ''),
      cname: typeof category?.name === 'string' ? category.name : null,
      barcode: typeof product?.barcode === 'string' ? product.barcode : null,
      ean13: typeof product?.ean13 === 'string' ? product.ean13 : null,
      unit: typeof product?.unit === 'number' ? product.unit : 0,
      qty_cnt: t.count,
      qty_sum: round3(t.sum),
      qty_avg: round3(t.sum / t.count),
      date_updated: t.updated,
      pp_avg: t.priceCount > 0 ? Math.round(t.priceSum / t.priceCount) : 0,
      pp_unit: t.lastPrice,
    });
  }
  rows.sort((a, b) => compareIds(a.id_product as Id, b.id_product as Id));
  return { data: rows, source: WAREHOUSE_STATUS_SOURCE };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
