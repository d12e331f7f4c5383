/**
 * What the query helpers should answer, worked out from the simulator's store by the rules
 * docs/queries.md gives for each helper: the truth the browser's answers are compared with. Written apart
 * from the library (its own folding, ranking and tree), so a mistake in either shows as a difference.
 */
import type { Simulator } from '../../src/simulator/index.js';

/** A record as the simulator stores it. */
export type SimRow = Record<string, unknown> & { id: string };

/** Not deleted: `_d` unset or 0, and for a product `visible` not false. */
export function live(row: SimRow): boolean {
  return !row._d && !(row._t === 'products' && row.visible === false);
}

function rows(sim: Simulator, table: Parameters<Simulator['store']['list']>[0]): SimRow[] {
  return sim.store.list(table) as SimRow[];
}

/** Numeric order of two canonical ids (length first). */
function byId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The orders of a register, newest first, at most `limit`. */
export function ordersOfRegister(sim: Simulator, idCashRegister: string, limit: number): string[] {
  return rows(sim, 'orders')
    .filter((o) => live(o) && o.id_cash_register === idCashRegister)
    .sort((a, b) => Number(b.date_created) - Number(a.date_created) || byId(b.id, a.id))
    .slice(0, limit)
    .map((o) => o.id);
}

/** The live items of an order, in id order. */
export function itemsOfOrder(sim: Simulator, idOrder: string): string[] {
  return rows(sim, 'order_details')
    .filter((i) => live(i) && i.id_order === idOrder)
    .map((i) => i.id)
    .sort(byId);
}

/** The live product whose barcode, EAN-13 or SKU (in that order of preference) is `code`. */
export function productByCode(sim: Simulator, code: string): string | undefined {
  const products = rows(sim, 'products').filter(live);
  for (const field of ['barcode', 'ean13', 'sku']) {
    const found = products.find((p) => p[field] === code);
    if (found) return found.id;
  }
  return undefined;
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
const words = (text: string) => fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * `searchProducts(text)` as docs/queries.md ranks it: every word typed starts a word of the product's
 * name, alternative name or codes, or of its category's name; the product whose code is the text,
 * then the one whose name is the text, then all words whole, then prefixes; within a rank, names
 * starting with the first word typed first, then by name (the page's collation, `en-US`).
 */
export function searchProducts(sim: Simulator, text: string, limit: number): string[] {
  const typed = words(text);
  const categoryWords = new Map(rows(sim, 'categories').filter(live).map((c) => [c.id, words(String(c.name ?? ''))]));
  const ranked: { id: string; name: string; rank: number; first: boolean }[] = [];
  for (const product of rows(sim, 'products').filter(live)) {
    const own = ['name', 'name_alternative', 'sku', 'barcode', 'ean13', 'upc'].flatMap((f) => (typeof product[f] === 'string' ? words(product[f] as string) : []));
    const category = categoryWords.get(String(product.id_category)) ?? [];
    const all = [...own, ...category];
    if (!typed.every((w) => all.some((x) => x.startsWith(w)))) continue;
    const name = String(product.name ?? '');
    const code = ['barcode', 'ean13', 'upc', 'sku'].some((f) => typeof product[f] === 'string' && product[f] !== '' && fold(product[f] as string) === fold(text.trim()));
    const rank = code ? 0 : words(name).join(' ') === typed.join(' ') ? 1 : typed.every((w) => all.includes(w)) ? 2 : 3;
    ranked.push({ id: product.id, name, rank, first: words(name)[0]?.startsWith(typed[0]!) ?? false });
  }
  ranked.sort((a, b) => a.rank - b.rank || Number(b.first) - Number(a.first) || a.name.localeCompare(b.name, 'en-US'));
  return ranked.slice(0, limit).map((r) => r.id);
}

/** The id of the price row of a product in force at `at`: live, started, not expired, the latest start. */
export function priceOf(sim: Simulator, idProduct: string, at: number): string | undefined {
  const inForce = rows(sim, 'product_price_matrix').filter(
    (r) => live(r) && r.id_product === idProduct && Number(r.date_starts) <= at && (r.date_expires == null || Number(r.date_expires) > at),
  );
  inForce.sort((a, b) => Number(b.date_starts) - Number(a.date_starts));
  return inForce[0]?.id;
}

/** A tree as `[id, children]` pairs. */
export type TreeShape = [string, TreeShape][];

/**
 * The live categories as a tree, roots first: a category whose parent is deleted or missing is a
 * root; siblings by `node_sort`, then by name.
 */
export function categoryTree(sim: Simulator): TreeShape {
  const categories = rows(sim, 'categories').filter(live);
  const ids = new Set(categories.map((c) => c.id));
  const childrenOf = (parent: string | undefined): TreeShape =>
    categories
      .filter((c) => (parent === undefined ? !ids.has(String(c.id_category_parent)) : c.id_category_parent === parent))
      .sort((a, b) => Number(a.node_sort ?? 0) - Number(b.node_sort ?? 0) || String(a.name ?? '').localeCompare(String(b.name ?? ''), 'en-US'))
      .map((c) => [c.id, childrenOf(c.id)]);
  return childrenOf(undefined);
}

/** The live stock rows of a warehouse (of one product when given), in id order. */
export function stockRows(sim: Simulator, idWarehouse: string, idProduct?: string): string[] {
  return rows(sim, 'stock_history')
    .filter((r) => live(r) && r.id_warehouse === idWarehouse && (idProduct === undefined || r.id_record === idProduct))
    .map((r) => r.id)
    .sort(byId);
}
