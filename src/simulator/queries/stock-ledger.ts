/**
 * Stock per warehouse and product, summed from stock_history: how many movements, their total
 * and average quantity, purchase prices and the last movement's time. Built on first use in one
 * pass (peeking fields, not building rows), then kept current by every stock_history write.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';

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
      if (previous) this.apply(fromRecord(previous), -1);
      this.apply(fromRecord(record), 1);
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
    for (let pos = 0; pos < h.count; pos++) {
      this.apply(
        {
          warehouse: h.peek(pos, 'id_warehouse'),
          product: h.peek(pos, 'id_record'),
          quantity: Number(h.peek(pos, 'quanity') ?? 0),
          price: h.peek(pos, 'product_purchase_unit_price_tax_excl'),
          time: Number(h.peek(pos, 'date_stocked') ?? h.versionAt(pos)),
          deleted: h.peek(pos, '_d') !== 0,
        },
        1,
      );
    }
    return this.totals;
  }

  private apply(m: Movement, sign: 1 | -1): void {
    if (m.deleted || typeof m.warehouse !== 'string' || typeof m.product !== 'string' || !this.totals) return;
    let products = this.totals.get(m.warehouse);
    if (!products) this.totals.set(m.warehouse, (products = new Map()));
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

function fromRecord(record: SimRecord): Movement {
  return {
    warehouse: record.id_warehouse,
    product: record.id_record,
    quantity: Number(record.quanity ?? 0),
    price: record.product_purchase_unit_price_tax_excl,
    time: Number(record.date_stocked ?? record._v),
    deleted: record._d !== 0,
  };
}
