/**
 * Stock per warehouse and product, summed from stock_history: how many movements, their total
 * and average quantity, purchase prices and the last movement's time. Built on first use in one
 * pass (peeking fields, not building rows), then kept current by every stock_history write.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';

/** Totals of one product in one warehouse. */
export interface StockTotals {
  /** Number of stock movements. */
  count: number;
  /** Sum of `quanity`. */
  sum: number;
  /** Sum and count of known purchase prices. */
  priceSum: number;
  priceCount: number;
  /** Purchase price of the latest movement that had one. */
  lastPrice: number;
  /** Time of the latest movement. */
  updated: number;
}

interface Movement {
  warehouse: unknown;
  product: unknown;
  quantity: number;
  price: unknown;
  time: number;
  deleted: boolean;
}

/** Stock totals by warehouse, then product. */
export class StockLedger {
  private totals: Map<Id, Map<Id, StockTotals>> | undefined;

  constructor(private readonly history: CollectionStore) {
    history.onWrite((record, previous) => {
      if (!this.totals) return;
      if (previous) this.apply(movementOf((field) => previous[field], previous._v), -1);
      this.apply(movementOf((field) => record[field], record._v), 1);
    });
  }

  /** Totals per product of one warehouse (empty when it has no movements). */
  warehouse(warehouseId: Id): ReadonlyMap<Id, StockTotals> {
    return this.build().get(warehouseId) ?? new Map();
  }

  private build(): Map<Id, Map<Id, StockTotals>> {
    if (this.totals) return this.totals;
    this.totals = new Map();
    const h = this.history;
    let pos = 0;
    const peek = (field: string): unknown => h.peek(pos, field);
    for (; pos < h.count; pos++) this.apply(movementOf(peek, h.versionAt(pos)), 1);
    return this.totals;
  }

  private apply(m: Movement, sign: 1 | -1): void {
    if (m.deleted || typeof m.warehouse !== 'string' || typeof m.product !== 'string' || !this.totals) return;
    let products = this.totals.get(m.warehouse);
    if (!products) this.totals.set(m.warehouse, (products = new Map<string, StockTotals>()));
    let t = products.get(m.product);
    if (!t) products.set(m.product, (t = { count: 0, sum: 0, priceSum: 0, priceCount: 0, lastPrice: 0, updated: 0 }));
    t.count += sign;
    t.sum += sign * m.quantity;
    if (typeof m.price === 'number') {
      t.priceSum += sign * m.price;
      t.priceCount += sign;
      if (sign > 0 && m.time >= t.updated) t.lastPrice = m.price;
    }
    if (sign > 0 && m.time > t.updated) t.updated = m.time;
    if (t.count <= 0) products.delete(m.product);
  }
}

/**
 * The movement of one stock_history row, read field by field (from a record, or peeked from the
 * store without building the row); `version` is the row's `_v`, its time when `date_stocked` is missing.
 */
function movementOf(field: (name: string) => unknown, version: unknown): Movement {
  return {
    warehouse: field('id_warehouse'),
    product: field('id_record'),
    quantity: Number(field('quanity') ?? 0),
    price: field('product_purchase_unit_price_tax_excl'),
    time: Number(field('date_stocked') ?? version),
    deleted: field('_d') !== 0,
  };
}
