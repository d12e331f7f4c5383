import { Dexie } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import { isLive, type StoredRecord } from '../db/sync-rows.js';
import type { Id } from '../ids/id.js';
import type { StoredRecordOf } from '../schema/types.js';
import type { CollectionName } from '../schema/collections.js';
import { describeValue } from '../errors/describe-value.js';
import { OutsideHistoryWindowError } from '../errors/outside-history-window-error.js';
import { ValidationError, formatIssues, type ValidationIssue } from '../errors/validation-error.js';
import type { MirrorDatabase } from './typed-rows.js';
import { searchProducts } from './product-search.js';

export { isLive };

/** A category with its children, rebuilt from the flattened `categories` table. */
export type CategoryTreeNode = StoredRecordOf<'categories'> & { children: CategoryTreeNode[] };

/** Options of {@link MirrorQueries.ordersOfRegister}. */
export interface OrdersOfRegisterOptions {
  /** How many orders at most (default 40), the newest. */
  limit?: number;
  /** The earliest `date_created` (ms) wanted. */
  since?: number;
  /** The latest `date_created` (ms) wanted. */
  until?: number;
}

/**
 * Query helpers for what apps ask most. All of them hide tombstones (`_d` != 0, and products
 * with `visible` false, which the service uses for deleted products) and read only IndexedDB:
 * they answer offline, and inside `mirror.live()` they update as the data changes.
 */
export interface MirrorQueries {
  /**
   * Orders of one register, newest first (by `date_created`), at most `limit` (default 40), those
   * created from `since` to `until` (ms, both included) when given.
   *
   * Under a history window (the option `historyWindow`), a `since` before the window's edge
   * (`status.historyEdge.orders`) rejects with an {@link OutsideHistoryWindowError} carrying the
   * edge, rather than answering with part of the range: ask again from `error.edge` for what the
   * mirror holds, and ask the service's order history report for what is older
   * (`client.orderHistory`, online). A `since` or `until` that is not a finite number, or a `since`
   * after `until`, rejects with a {@link ValidationError}.
   */
  ordersOfRegister(idCashRegister: Id, opts?: OrdersOfRegisterOptions): Promise<StoredRecordOf<'orders'>[]>;
  /** Items (`order_details`) of one order. */
  itemsOfOrder(idOrder: Id): Promise<StoredRecordOf<'order_details'>[]>;
  /** The product whose barcode, EAN-13 or SKU is `code`. */
  productByCode(code: string): Promise<StoredRecordOf<'products'> | undefined>;
  /**
   * Live products matching `text`, best first, at most `limit` (default 50): every word typed
   * starts a word of the name, the alternative name, the SKU, barcode, EAN or UPC, or the
   * category's name, ignoring case and diacritics. The product whose code is the text comes first,
   * then whole-word matches, then prefixes (see `searchProducts` in `product-search.ts`).
   */
  searchProducts(text: string, opts?: { limit?: number }): Promise<StoredRecordOf<'products'>[]>;
  /** The price-matrix row of a product in force at `at` (default now), for a shop if given. */
  priceOf(idProduct: Id, opts?: { at?: number; idShop?: Id }): Promise<StoredRecordOf<'product_price_matrix'> | undefined>;
  /**
   * The category tree of live categories, roots first, children ordered by `node_sort`. A live
   * category whose parent is deleted or not in the mirror is shown as a root, not hidden.
   */
  categoryTree(): Promise<CategoryTreeNode[]>;
  /** Stock history rows of a warehouse, optionally of one product (`id_record`). */
  stockRows(idWarehouse: Id, opts?: { idProduct?: Id }): Promise<StoredRecordOf<'stock_history'>[]>;
}

/** Creates the {@link MirrorQueries} over a database. */
export function createQueries(mirrorDb: MirrorDb): MirrorQueries {
  // The tables typed by their records: what the read face stored (see `StoredRecordOf`).
  const db = mirrorDb as unknown as MirrorDatabase;
  return {
    async ordersOfRegister(idCashRegister, opts = {}) {
      const limit = opts.limit ?? 40;
      const { since, until } = checkRange(opts);
      if (since !== undefined) await refuseBeyondWindow(mirrorDb, 'orders', since);
      const out: StoredRecordOf<'orders'>[] = [];
      await db.orders
        .where('[id_cash_register+date_created]')
        .between([idCashRegister, since ?? Dexie.minKey], [idCashRegister, until ?? Dexie.maxKey], true, true)
        .reverse()
        .until(() => out.length >= limit)
        .each((order) => {
          if (isLive(order)) out.push(order);
        });
      return out;
    },
    async itemsOfOrder(idOrder) {
      return (await db.order_details.where('id_order').equals(idOrder).toArray()).filter(isLive);
    },
    async productByCode(code) {
      for (const index of ['barcode', 'ean13', 'sku'] as const) {
        const found = (await db.products.where(index).equals(code).toArray()).find(isLive);
        if (found) return found;
      }
      return undefined;
    },
    searchProducts(text, opts = {}) {
      return searchProducts(mirrorDb, text, opts.limit ?? 50) as Promise<StoredRecordOf<'products'>[]>;
    },
    async priceOf(idProduct, opts = {}) {
      const at = opts.at ?? Date.now();
      const rows = (await db.product_price_matrix.where('id_product').equals(idProduct).toArray()).filter(
        (r) =>
          isLive(r) &&
          num(r.date_starts) <= at &&
          (r.date_expires === null || r.date_expires === undefined || num(r.date_expires) > at) &&
          (opts.idShop === undefined || r.id_shop === '0' || r.id_shop === undefined || r.id_shop === opts.idShop),
      );
      // The most specific row wins: one for the shop over a general one, then the latest start.
      rows.sort((a, b) => shopRank(b, opts.idShop) - shopRank(a, opts.idShop) || num(b.date_starts) - num(a.date_starts));
      return rows[0];
    },
    async categoryTree() {
      const nodes = (await db.categories.toArray()).filter(isLive);
      const byId = new Map<string, CategoryTreeNode>(nodes.map((n) => [n.id, { ...n, children: [] }]));
      const roots: CategoryTreeNode[] = [];
      for (const node of byId.values()) {
        const parent = typeof node.id_category_parent === 'string' ? byId.get(node.id_category_parent) : undefined;
        (parent ? parent.children : roots).push(node);
      }
      const sort = (list: CategoryTreeNode[]) => {
        list.sort((a, b) => num(a.node_sort) - num(b.node_sort) || (a.name ?? '').localeCompare(b.name ?? ''));
        for (const n of list) sort(n.children);
      };
      sort(roots);
      return roots;
    },
    async stockRows(idWarehouse, opts = {}) {
      // One index serves both: a warehouse's rows are the range of its first field.
      const index = db.stock_history.where('[id_warehouse+id_record]');
      const rows =
        opts.idProduct === undefined
          ? await index.between([idWarehouse, Dexie.minKey], [idWarehouse, Dexie.maxKey]).toArray()
          : await index.equals([idWarehouse, opts.idProduct]).toArray();
      return rows.filter(isLive);
    },
  };
}

/** `since` and `until` of a range query, checked: finite numbers, `since` not after `until`. */
function checkRange(opts: { since?: number; until?: number }): { since?: number; until?: number } {
  const issues: ValidationIssue[] = [];
  for (const key of ['since', 'until'] as const) {
    const value: unknown = opts[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) issues.push({ path: [key], message: `must be a time in ms, got ${describeValue(value)}` });
  }
  if (issues.length === 0 && opts.since !== undefined && opts.until !== undefined && opts.since > opts.until) {
    issues.push({ path: ['since'], message: `is after until (${opts.since} > ${opts.until})` });
  }
  if (issues.length > 0) throw new ValidationError(`ordersOfRegister: ${formatIssues(issues)}`, { issues });
  return opts;
}

/**
 * Rejects a query reaching before the history window's edge of `collection` (the checkpoint's
 * `historyEdge`, read in the query's own transaction or live query, so a live query follows the
 * edge as pruning moves it).
 */
async function refuseBeyondWindow(db: MirrorDb, collection: CollectionName, since: number): Promise<void> {
  const edge = (await db._sync_checkpoints.get(collection))?.historyEdge;
  if (edge === undefined || since >= edge) return;
  throw new OutsideHistoryWindowError(
    `${collection} created before ${new Date(edge).toISOString()} are outside this mirror's history window (historyWindow.${collection}); ` +
      `asked from ${new Date(since).toISOString()}. Ask again from that edge for what the mirror holds, and ask the service's ` +
      `order history report (client.orderHistory, online) for what is older.`,
    { collection, edge, since },
  );
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

function shopRank(row: StoredRecord, idShop: Id | undefined): number {
  return idShop !== undefined && row.id_shop === idShop ? 1 : 0;
}
