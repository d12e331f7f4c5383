/**
 * Prices of products from the price matrix. The product list's `__price_matrix_model` is the
 * product's current row: not deleted, started (`date_starts` <= now), not expired, and of those
 * the one that started last. `get-price-by-product-id` answers with all live rows of the product.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';
import { ChildIndex } from './child-index.js';

/** Price rows by product. */
export class PriceRows {
  private readonly index: ChildIndex;

  constructor(priceMatrix: CollectionStore) {
    this.index = new ChildIndex(priceMatrix, 'id_product');
  }

  /** The row in force for a product at `now`, or null. */
  currentRow(productId: Id, now: number): SimRecord | null {
    let best: SimRecord | null = null;
    for (const row of this.index.childrenOf(productId)) {
      if (row._d !== 0) continue;
      const starts = Number(row.date_starts);
      const expires = row.date_expires;
      if (starts > now || (typeof expires === 'number' && expires <= now)) continue;
      if (!best || starts >= Number(best.date_starts)) best = row;
    }
    return best;
  }

  /** Every non-deleted row of a product, latest `date_starts` first. */
  rowsOf(productId: Id): SimRecord[] {
    return this.index
      .childrenOf(productId)
      .filter((row) => row._d === 0)
      .sort((a, b) => Number(b.date_starts) - Number(a.date_starts));
  }
}
