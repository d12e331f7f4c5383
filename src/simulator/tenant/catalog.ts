/**
 * Products and their price matrix rows. Most products exist from the first day (the initial
 * import), the rest arrive over the years; some were deleted (`_d` set, `visible` false). Names,
 * prices and VAT come from the product pool of the product's category (`product-pools.ts`). Each
 * product's price rows form consecutive validity windows: a row expires when the next starts, the
 * last one is current. Sales look prices up here so order items bill what the matrix said.
 */
import type { SimRecord } from '../record.js';
import { Rng, hashString } from '../rng.js';
import type { Categories } from './categories.js';
import { PRODUCT_POOLS, nameOf, poolNames, type PoolName, type ProductGroup } from './product-pools.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';
import { DAY, countBefore, spreadTimes, strictlyIncreasing } from './timeline.js';
import { ean13 } from './words.js';

/** Generated products and prices, and the lookups sales need. */
export interface Catalog {
  products: TableData;
  product_price_matrix: TableData;
  /** Tax multiplier of product p (1.21 means 21 % VAT). */
  taxRateOf: Float64Array;
  /** Unit of product p (0 pieces, 1 kg). */
  unitOf: Uint8Array;
  /** Pieces (kilograms when sold by weight) per delivered case of product p. */
  caseOf: Uint16Array;
  /** 1 for retail goods (coffee beans, mugs), 0 for what is served on site. */
  goodsOf: Uint8Array;
  /** The first-level category (such as "Káva") product p is sold under. */
  sectionOf(p: number): string;
  /** Product p's record (generated version). */
  product(p: number): SimRecord;
  /** Price (tax incl., x1000, CZK) of product p valid at time t. */
  priceAt(p: number, t: number): number;
  /** True when product p exists at time t and is not deleted then. */
  availableAt(p: number, t: number): boolean;
  /** A random product that exists and is not deleted at time t. */
  productAt(t: number, rng: Rng): number;
}

/** Generates products and their price matrix rows. */
export function generateCatalog(ctx: TenantContext, categories: Categories): Catalog {
  const P = ctx.counts.products;
  const times = productTimes(ctx);
  const products = new TableData('products', times, ctx.rng('products.ids'));
  const facts: ProductFacts = {
    taxRateOf: new Float64Array(P),
    unitOf: new Uint8Array(P),
    caseOf: new Uint16Array(P),
    goodsOf: new Uint8Array(P),
    sections: new Array<string>(P),
    basePrice: new Int32Array(P),
    deletedAt: new Float64Array(P),
  };
  const names = createNamer(ctx, categories);
  const records = products.eager((p) => productRecord(ctx, categories, products, facts, names, p));
  const rows = planPriceRows(ctx, times, facts.basePrice);
  const ppm = new TableData('product_price_matrix', rows.times, ctx.rng('product_price_matrix.ids'));
  ppm.eager((m) => priceRowRecord(ctx, ppm, products, facts.taxRateOf, rows, m));
  const { taxRateOf, unitOf, caseOf, goodsOf, sections, deletedAt } = facts;
  return {
    products,
    product_price_matrix: ppm,
    taxRateOf,
    unitOf,
    caseOf,
    goodsOf,
    sectionOf: (p) => sections[p] as string,
    product: (p) => records[p] as SimRecord,
    priceAt: (p, t) => priceAt(rows, facts.basePrice, p, t),
    availableAt(p, t) {
      const gone = deletedAt[p] as number;
      return (times[p] as number) < t && (gone === 0 || gone > t);
    },
    productAt(t, rng) {
      const n = Math.max(1, countBefore(times, t));
      for (let attempt = 0; attempt < 6; attempt++) {
        const p = rng.int(0, n - 1);
        const gone = deletedAt[p] as number;
        if (gone === 0 || gone > t) return p;
      }
      return 0;
    },
  };
}

/** What sales and stock read of product p, by index, filled as the products are made. */
interface ProductFacts {
  taxRateOf: Float64Array;
  unitOf: Uint8Array;
  caseOf: Uint16Array;
  goodsOf: Uint8Array;
  sections: string[];
  /** The first price row's price, tax incl., CZK x1000. */
  basePrice: Int32Array;
  /** Deletion time, or 0. */
  deletedAt: Float64Array;
}

/** Creation times: most products on the first day (the initial import), the rest over the years. */
function productTimes(ctx: TenantContext): Float64Array {
  const P = ctx.counts.products;
  const initial = Math.round(P * 0.6);
  const times = new Float64Array(P);
  times.set(spreadTimes(initial, ctx.from + 6 * 3_600_000, ctx.from + DAY, ctx.rng('products.times.initial')));
  times.set(spreadTimes(P - initial, ctx.from + DAY, ctx.to - DAY, ctx.rng('products.times')), initial);
  return strictlyIncreasing(times);
}

/** Product p: named from its category's pool, some edited later, a few deleted. */
function productRecord(ctx: TenantContext, categories: Categories, products: TableData, facts: ProductFacts, names: { next(rng: Rng): Named }, p: number): SimRecord {
  const rng = ctx.rng('products', p);
  const created = products.times[p] as number;
  const { k, section, group, name, price } = names.next(rng);
  const goods = group.goods === true;
  const unit = group.byWeight ? 1 : 0;
  const tax = group.tax;
  facts.sections[p] = section;
  facts.unitOf[p] = unit;
  facts.caseOf[p] = group.caseSize;
  facts.goodsOf[p] = goods ? 1 : 0;
  facts.taxRateOf[p] = tax;
  facts.basePrice[p] = price;
  // Product 0 is never deleted, so a sale always finds something to sell.
  const deleted = p > 0 && rng.chance(0.03) ? rng.int(created + 1, Math.max(created + 1, ctx.to)) : 0;
  facts.deletedAt[p] = deleted;
  const edited = rng.chance(0.3) ? rng.int(created, Math.max(created, ctx.to)) : created;
  const version = Math.max(edited, deleted);
  products.versions[p] = version;
  const barcode = goods || rng.chance(0.3) ? ean13(rng) : null;
  const durable = goods && section === 'Hrnky';
  const { idC } = ctx;
  return Object.assign(commonFields(products, p, idC, deleted), {
    name,
    date_updated: version,
    quantity_multiple: 1,
    quantity_minimal: 1,
    additional_shipping_cost: 0,
    inventory_management: goods || rng.chance(0.4),
    visible: deleted === 0,
    color: rng.pick([0, 0xffc107, 0x8bc34a, 0x03a9f4]),
    item_type: goods ? 1 : 0,
    warranty_length: durable ? 24 : 0,
    condition_type: 0,
    icon_code: rng.int(0, 60),
    warranty_type: 0,
    unit,
    sale_group_type: 0,
    attributes_bitmask: rng.chance(0.2) ? rng.int(1, 15) : 0,
    inventory_type: goods ? 1 : 0,
    id_category: categories.table.id(k),
    id_exec_rule: '0',
    node_sort: p,
    id_shop: '0',
    id_tax_rules_group: tax > 1.2 ? '0' : null,
    id_global_product_code: null,
    tax_luxury: 1,
    tax_eco: 1,
    tax_pst_rate: tax,
    accounting_group: 600000,
    image_dimension: null,
    height: goods ? rng.int(5, 30) : null,
    weight: goods ? rng.int(100, 1500) : null,
    depth: null,
    width: null,
    notes_quick: null,
    ean13: barcode,
    name_alternative: rng.chance(0.2) ? name.toUpperCase() : null,
    sku: goods ? `SKU-${String(p).padStart(5, '0')}` : null,
    barcode,
    image_url: rng.chance(0.2) ? `https://cdn.example.cz/img/${p}.jpg` : null,
    upc: null,
    details_url: null,
    tags: rng.chance(0.1) ? 'novinka' : null,
    description_short: rng.chance(0.3) ? `${name} – oblíbená položka.` : null,
    internal_extra: null,
  });
}

/** Price row m of the matrix; it expires when the product's next row starts. */
function priceRowRecord(ctx: TenantContext, ppm: TableData, products: TableData, taxRateOf: Float64Array, rows: PriceRows, m: number): SimRecord {
  const { idC } = ctx;
  const p = rows.product[m] as number;
  const price = rows.price[m] as number;
  const tax = taxRateOf[p] as number;
  const excl = Math.round(price / tax);
  const rng = ctx.rng('product_price_matrix', m);
  const next = rows.next[m] as number;
  return Object.assign(commonFields(ppm, m, idC), {
    id_product: products.id(p),
    date_starts: rows.times[m] as number,
    currency: 'CZK',
    unit_price_base_tax_excl: Math.round(price / tax / 10) / 100,
    unit_price_base_tax_incl: price / 1000,
    unit_price_regular_tax_excl: excl,
    reduction_amount_a_tax_excl: 0,
    unit_price_a_tax_excl: excl,
    unit_price_b_tax_excl: rng.chance(0.5) ? Math.round(excl * 0.95) : null,
    unit_price_c_tax_excl: rng.chance(0.2) ? Math.round(excl * 0.9) : null,
    points_deduct: 0,
    credits_deduct: 0,
    hour_bitmask: 0,
    price_bitmask: 0,
    dow_bitmask: 0,
    id_exec_rule: '0',
    id_shop: '0',
    id_warehouse: '0',
    date_expires: next < 0 ? null : (rows.times[next] as number),
  });
}

/** Price (tax incl., CZK x1000) of product p valid at time t: its latest row started by t, or its first. */
function priceAt(rows: PriceRows, basePrice: Int32Array, p: number, t: number): number {
  let price = basePrice[p] as number;
  const end = rows.rowStart[p + 1] as number;
  for (let j = rows.rowStart[p] as number; j < end; j++) {
    const m = rows.byProduct[j] as number;
    if ((rows.times[m] as number) <= t || j === rows.rowStart[p]) price = rows.price[m] as number;
  }
  return price;
}

/** A product's place in the catalogue: its leaf category, section, group, name and base price (CZK x1000). */
interface Named {
  k: number;
  section: string;
  group: ProductGroup;
  name: string;
  price: number;
}

/**
 * Names products: each goes to a leaf category whose section still has a name left, and takes the
 * next name of that section's pool (a seeded order). Only when every pool is used up do names
 * repeat. The same base name has the same price in every variant (times the variant's factor).
 */
function createNamer(ctx: TenantContext, categories: Categories): { next(rng: Rng): Named } {
  const leaves = categories.leaves.length > 0 ? categories.leaves : [0];
  const pools = new Map<string, { pool: readonly ProductGroup[]; order: PoolName[]; used: number }>();
  const poolOf = (section: string) => {
    let entry = pools.get(section);
    if (!entry) {
      const pool = PRODUCT_POOLS[section] ?? PRODUCT_POOLS.Káva!;
      const order = poolNames(pool);
      shuffle(order, ctx.rng('products.names', hashString(section)));
      entry = { pool, order, used: 0 };
      pools.set(section, entry);
    }
    return entry;
  };
  const sectionOf = new Map(leaves.map((k) => [k, categories.section(k)]));
  let open = [...leaves];
  return {
    next(rng) {
      const k = rng.pick(open.length > 0 ? open : leaves);
      const section = sectionOf.get(k) as string;
      const entry = poolOf(section);
      // A pool used up closes its leaves: later products go where names are left.
      if (entry.used + 1 === entry.order.length) open = open.filter((leaf) => sectionOf.get(leaf) !== section);
      const pick = entry.order[entry.used % entry.order.length] as PoolName;
      entry.used++;
      const group = entry.pool[pick.group] as ProductGroup;
      const base = group.names[pick.name] as string;
      const [min, max] = group.price;
      const baseCzk = min + Rng.of(ctx.seed, hashString(base)).next() * (max - min);
      const factor = pick.variant < 0 ? 1 : (group.variants[pick.variant]?.[1] ?? 1);
      return { k, section, group, name: nameOf(entry.pool, pick), price: shelfPrice(baseCzk * factor) };
    },
  };
}

/** A price as a shop writes it (CZK x1000): whole crowns, "149" from 100 CZK up, "2 990" from 1000 CZK up. */
function shelfPrice(czk: number): number {
  const crowns = czk < 100 ? Math.max(1, Math.round(czk)) : czk < 1000 ? Math.round(czk / 10) * 10 - 1 : Math.round(czk / 100) * 100 - 10;
  return crowns * 1000;
}

/** Shuffles in place (Fisher–Yates) with the given generator. */
function shuffle(items: unknown[], rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j], items[i]];
  }
}

interface PriceRows {
  times: Float64Array;
  product: Int32Array;
  price: Int32Array;
  /** Next row of the same product (its start is this row's expiry), or -1. */
  next: Int32Array;
  /** Rows of product p are byProduct[rowStart[p] .. rowStart[p+1]), oldest first. */
  rowStart: Int32Array;
  byProduct: Int32Array;
}

/** Spreads the rows over products (each at least one while rows last) and orders them by time. */
function planPriceRows(ctx: TenantContext, productTimes: Float64Array, basePrice: Int32Array): PriceRows {
  const P = productTimes.length;
  const M = ctx.counts.product_price_matrix;
  const rng = ctx.rng('product_price_matrix.plan');
  const perProduct = new Int32Array(P);
  if (M >= P) {
    perProduct.fill(1);
    for (let extra = M - P; extra > 0; extra--) {
      const p = rng.int(0, P - 1);
      perProduct[p] = (perProduct[p] as number) + 1;
    }
  } else {
    for (let m = 0; m < M; m++) perProduct[Math.floor((m * P) / M)] = 1;
  }
  const draft: { t: number; p: number; seq: number }[] = [];
  for (let p = 0; p < P; p++) {
    const n = perProduct[p] as number;
    if (n === 0) continue;
    const created = productTimes[p] as number;
    // Changes come a day or more after the product (half-way to the history's end for one created
    // since), never after that end: a row's time is its id, `_v` and `date_created`, and a version
    // past the clock would stay newer than every later write of the row.
    const from = Math.min(created + DAY, created + (ctx.to - created) / 2);
    const changes = n > 1 ? spreadTimes(n - 1, from, ctx.to, ctx.rng('product_price_matrix.changes', p)) : new Float64Array(0);
    draft.push({ t: created, p, seq: 0 });
    changes.forEach((t, j) => draft.push({ t, p, seq: j + 1 }));
  }
  draft.sort((a, b) => a.t - b.t || a.p - b.p || a.seq - b.seq);
  const times = strictlyIncreasing(Float64Array.from(draft, (d) => d.t));
  const product = Int32Array.from(draft, (d) => d.p);
  const price = new Int32Array(M);
  const rowStart = new Int32Array(P + 1);
  for (let p = 0; p < P; p++) rowStart[p + 1] = (rowStart[p] as number) + (perProduct[p] as number);
  const fill = rowStart.slice(0, P);
  const byProduct = new Int32Array(M);
  const next = new Int32Array(M).fill(-1);
  const lastOf = new Int32Array(P).fill(-1);
  draft.forEach((d, m) => {
    const slot = fill[d.p] as number;
    fill[d.p] = slot + 1;
    byProduct[slot] = m;
    // Each change moves the price by -10 % .. +15 %, rounded to whole crowns.
    price[m] = d.seq === 0 ? (basePrice[d.p] as number) : Math.max(1000, Math.round((basePrice[d.p] as number) * (0.9 + ctx.rng('product_price_matrix.price', d.p, d.seq).next() * 0.25) / 1000) * 1000);
    const last = lastOf[d.p] as number;
    if (last >= 0) next[last] = m;
    lastOf[d.p] = m;
  });
  return { times, product, price, next, rowStart, byProduct };
}
