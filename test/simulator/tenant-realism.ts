/**
 * What a shop would believe of a simulator's data, as checks that list what is wrong: product
 * names its categories can give, category names without repeated words, receipts numbered per
 * register, orders that fit their shop's kind, stock that never goes below zero, and a central
 * warehouse that holds stock.
 */
import type { SimRecord } from '../../src/simulator/index.js';
import { PRODUCT_POOLS, nameOf, poolNames } from '../../src/simulator/tenant/product-pools.js';
import { SHOP_PROFILES, inCzk, shopKindOf } from '../../src/simulator/tenant/shop-profiles.js';
import type { Tables } from './tenant-integrity.js';

const values = (t: Tables, name: string): SimRecord[] => [...(t[name]?.values() ?? [])];
const byId = (a: SimRecord, b: SimRecord): number => String(a.id).length - String(b.id).length || (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0);

/** The first-level category (a root's child, such as "Káva") a category is or lies under, by category id. */
export function sectionsOf(t: Tables): Map<string, string> {
  const categories = t.categories as Map<string, SimRecord>;
  const out = new Map<string, string>();
  for (const c of categories.values()) {
    let node = c;
    let parent = categories.get(String(node.id_category_parent));
    while (parent && parent.id_category_parent !== '0') {
      node = parent;
      parent = categories.get(String(node.id_category_parent));
    }
    out.set(String(c.id), String(node.name));
  }
  return out;
}

/** Products whose name their category's section cannot give ("Espresso #10", coffee beans "bez laktózy"). */
export function productNameProblems(t: Tables): string[] {
  const sections = sectionsOf(t);
  const names = new Map<string, Set<string>>();
  for (const [section, pool] of Object.entries(PRODUCT_POOLS)) names.set(section, new Set(poolNames(pool).map((n) => nameOf(pool, n))));
  return values(t, 'products')
    .filter((p) => !names.get(sections.get(String(p.id_category)) ?? '')?.has(String(p.name)))
    .map((p) => `product ${String(p.id)} "${String(p.name)}" is not a name of ${sections.get(String(p.id_category)) ?? 'its category'}`);
}

/** Category names that repeat a word, and siblings with the same name. */
export function categoryNameProblems(t: Tables): string[] {
  const problems: string[] = [];
  const siblings = new Map<string, Set<string>>();
  for (const c of values(t, 'categories')) {
    const words = String(c.name).toLocaleLowerCase().split(' ');
    if (new Set(words).size !== words.length) problems.push(`category "${String(c.name)}" repeats a word`);
    const parent = String(c.id_category_parent);
    const names = siblings.get(parent) ?? new Set<string>();
    if (names.has(String(c.name))) problems.push(`two categories named "${String(c.name)}" under ${parent}`);
    siblings.set(parent, names.add(String(c.name)));
  }
  return problems;
}

/** Registers whose receipts are not numbered 1, 2, 3... in the order they were printed. */
export function receiptProblems(t: Tables): string[] {
  const byRegister = new Map<string, SimRecord[]>();
  for (const o of values(t, 'orders')) byRegister.set(String(o.id_cash_register), [...(byRegister.get(String(o.id_cash_register)) ?? []), o]);
  const problems: string[] = [];
  for (const [register, orders] of byRegister) {
    orders.sort((a, b) => Number(a.date_created) - Number(b.date_created) || byId(a, b));
    orders.forEach((o, i) => {
      if (o.order_serial_number !== i + 1 || o.invoice_number !== i + 1) {
        problems.push(`register ${register}: receipt ${i + 1} is numbered ${String(o.order_serial_number)} / invoice ${String(o.invoice_number)}`);
      }
    });
  }
  return problems;
}

/**
 * Orders that do not fit their shop's kind: a total above what such a shop takes for one receipt,
 * or an item from a category the kind does not sell (unless nothing the kind sells was on sale then).
 */
export function orderFitProblems(t: Tables): string[] {
  const problems: string[] = [];
  const sections = sectionsOf(t);
  const products = t.products as Map<string, SimRecord>;
  const onSale = (p: SimRecord, at: number) => Number(p.date_created) < at && (p._d === 0 || Number(p._d) > at);
  const items = new Map<string, SimRecord[]>();
  for (const d of values(t, 'order_details')) items.set(String(d.id_order), [...(items.get(String(d.id_order)) ?? []), d]);
  for (const o of values(t, 'orders')) {
    const shop = t.shops?.get(String(o.id_shop));
    const kind = shopKindOf(shop?.name);
    if (!kind) {
      problems.push(`order ${String(o.id)}: shop "${String(shop?.name)}" is of no known kind`);
      continue;
    }
    const profile = SHOP_PROFILES[kind];
    const total = inCzk(Number(o.total_paid_tax_incl), String(o.currency));
    if (total > profile.maxOrderTotal) problems.push(`order ${String(o.id)} of ${kind} totals ${total / 1000} CZK`);
    const at = Number(o.date_created);
    const kindOnSale = [...products.values()].some((p) => onSale(p, at) && (sections.get(String(p.id_category)) ?? '') in profile.sells);
    for (const d of items.get(String(o.id)) ?? []) {
      const section = sections.get(String(products.get(String(d.id_product))?.id_category)) ?? '';
      if (kindOnSale && !(section in profile.sells)) problems.push(`order ${String(o.id)} of ${kind} sells ${String(d.product_name)} (${section})`);
    }
  }
  return problems;
}

/** The median order total (CZK x1000) of shops of a kind, or undefined when it has no orders. */
export function medianOrderTotal(t: Tables, kind: string): number | undefined {
  const totals = values(t, 'orders')
    .filter((o) => shopKindOf(t.shops?.get(String(o.id_shop))?.name) === kind)
    .map((o) => inCzk(Number(o.total_paid_tax_incl), String(o.currency)))
    .sort((a, b) => a - b);
  return totals[Math.floor(totals.length / 2)];
}

/** Stock of a product in a warehouse below zero at any point of the history (rows in id order). */
export function negativeStockProblems(t: Tables): string[] {
  const held = new Map<string, number>();
  const problems: string[] = [];
  for (const row of values(t, 'stock_history').sort(byId)) {
    if (row._d !== 0) continue;
    const key = `${String(row.id_warehouse)}:${String(row.id_record)}`;
    const next = (held.get(key) ?? 0) + Number(row.quanity);
    held.set(key, next);
    if (next < -1e-9) problems.push(`warehouse ${String(row.id_warehouse)} holds ${next} of product ${String(row.id_record)} after stock row ${String(row.id)}`);
  }
  return problems;
}

/** What a warehouse holds now, by product (products it holds none of left out). */
export function stockOf(t: Tables, warehouseId: string): Map<string, number> {
  const held = new Map<string, number>();
  for (const row of values(t, 'stock_history')) {
    if (row._d !== 0 || row.id_warehouse !== warehouseId) continue;
    held.set(String(row.id_record), (held.get(String(row.id_record)) ?? 0) + Number(row.quanity));
  }
  for (const [product, quantity] of held) if (quantity <= 1e-9) held.delete(product);
  return held;
}

const DAY = 86_400_000;

/**
 * Registers whose sales history stops short of `start` (the clock's start): a shop that sells every
 * day has sold on its last trading day, so each register that sold at all last sold within the
 * day before `start`, and, from `everyDay` days back, on each of those days.
 */
export function historyEndProblems(t: Tables, start: number, everyDay = 0): string[] {
  const days = new Map<string, Set<number>>();
  const latest = new Map<string, number>();
  for (const o of values(t, 'orders')) {
    const register = String(o.id_cash_register);
    const created = Number(o.date_created);
    if (created > start) continue;
    latest.set(register, Math.max(latest.get(register) ?? 0, created));
    days.set(register, (days.get(register) ?? new Set()).add(Math.floor((start - created) / DAY)));
  }
  const problems: string[] = [];
  for (const register of values(t, 'cash_registers').map((r) => String(r.id))) {
    const last = latest.get(register);
    if (last === undefined) problems.push(`register ${register} never sold`);
    else if (start - last > DAY) problems.push(`register ${register} last sold ${((start - last) / DAY).toFixed(1)} days before the start`);
    const missing = Array.from({ length: everyDay }, (_, back) => back).filter((back) => !days.get(register)?.has(back));
    if (last !== undefined && missing.length > 0) problems.push(`register ${register} did not sell ${missing.join(', ')} day(s) before the start`);
  }
  return problems;
}

/** Orders outside the hours of their shift, and registers with two shifts open at once. */
export function shiftProblems(t: Tables): string[] {
  const problems: string[] = [];
  const byRegister = new Map<string, SimRecord[]>();
  for (const s of values(t, 'shifts')) byRegister.set(String(s.id_cash_register), [...(byRegister.get(String(s.id_cash_register)) ?? []), s]);
  for (const [register, shifts] of byRegister) {
    shifts.sort((a, b) => Number(a.date_opened) - Number(b.date_opened));
    for (let i = 1; i < shifts.length; i++) {
      const before = shifts[i - 1] as SimRecord;
      if (before.date_closed === null || Number(before.date_closed) > Number(shifts[i]?.date_opened)) problems.push(`register ${register}: shift ${String(shifts[i]?.id)} opens before shift ${String(before.id)} closes`);
    }
  }
  for (const o of values(t, 'orders')) {
    const shift = t.shifts?.get(String(o.id_shift));
    const closes = shift?.date_closed === null ? Infinity : Number(shift?.date_closed);
    if (!shift || Number(o.date_created) < Number(shift.date_opened) || Number(o.date_closed) > closes) problems.push(`order ${String(o.id)} is outside the hours of its shift`);
  }
  return problems;
}
