/**
 * The plan of the stock history: which stock-up delivers what to which warehouse, which sold items
 * leave a stock row, and the inventory corrections, all in time order, such that no warehouse ever
 * holds less than nothing of a product.
 *
 * A shop restocks before it sells out, as a shop would: walking the sales in time order, an item
 * that would take more than the warehouse holds is first delivered by the warehouse's latest
 * stock-up before the sale (a case or more), or, without one, found by an inventory count. Every
 * shop warehouse opens with a delivery; the central warehouse (when there are several) receives
 * deliveries of its own and keeps them in reserve. The number of rows is the size's exactly: when
 * deliveries take more rows than planned, fewer sold items leave a stock row; when they take
 * fewer, more deliveries are made.
 */
import type { Rng } from '../rng.js';
import type { Catalog } from './catalog.js';
import type { Places } from './places.js';
import type { Sales } from './sales.js';
import type { TenantContext } from './tenant-context.js';
import { DAY, spreadTimes, strictlyIncreasing } from './timeline.js';

/** Kinds of stock rows. */
export const SALE = 0;
export const RECEIPT = 1;
export const CORRECTION = 2;

/** The planned stock history, rows in time order, and the stock-ups they belong to. */
export interface StockPlan {
  /** Row h: SALE, RECEIPT or CORRECTION. */
  kind: Uint8Array;
  /** Row h: the order item of a sale, the stock-up of a receipt, -1 for a correction. */
  ref: Int32Array;
  product: Int32Array;
  /** Signed: positive into the warehouse, negative out of it. */
  quantity: Float32Array;
  warehouse: Int32Array;
  /** Strictly increasing. */
  times: Float64Array;
  /** Register that books row h (a sale's order register, a stock-up's register, the warehouse's shop's). */
  register: Int32Array;
  stockupTimes: Float64Array;
  stockupWarehouse: Int32Array;
  stockupRegister: Int32Array;
}

const HOUR = 3_600_000;

/** Growable columns of planned rows before they are put in time order. */
class Rows {
  length = 0;
  kind: Uint8Array;
  ref: Int32Array;
  product: Int32Array;
  quantity: Float64Array;
  warehouse: Int32Array;
  /** Time x 4 + rank: 0 before a sale at the same ms (deliveries, stock found), 1 sales, 2 stock taken out. */
  key: Float64Array;
  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    this.kind = new Uint8Array(n);
    this.ref = new Int32Array(n);
    this.product = new Int32Array(n);
    this.quantity = new Float64Array(n);
    this.warehouse = new Int32Array(n);
    this.key = new Float64Array(n);
  }
  add(kind: number, ref: number, product: number, quantity: number, warehouse: number, time: number): number {
    if (this.length === this.kind.length) this.grow();
    const i = this.length++;
    this.kind[i] = kind;
    this.ref[i] = ref;
    this.product[i] = product;
    this.quantity[i] = quantity;
    this.warehouse[i] = warehouse;
    this.key[i] = time * 4 + (kind === SALE ? 1 : quantity < 0 ? 2 : 0);
    return i;
  }
  time(i: number): number {
    return Math.floor((this.key[i] as number) / 4);
  }
  private grow(): void {
    const size = this.kind.length * 2;
    const widen = <T extends Uint8Array | Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.kind = widen(this.kind, (n) => new Uint8Array(n));
    this.ref = widen(this.ref, (n) => new Int32Array(n));
    this.product = widen(this.product, (n) => new Int32Array(n));
    this.quantity = widen(this.quantity, (n) => new Float64Array(n));
    this.warehouse = widen(this.warehouse, (n) => new Int32Array(n));
    this.key = widen(this.key, (n) => new Float64Array(n));
  }
}

/** Plans the stock history of a tenant. */
export function planStock(ctx: TenantContext, places: Places, catalog: Catalog, sales: Sales): StockPlan {
  const { counts } = ctx;
  const U = counts.stockup;
  const Hs = counts.stock_history;
  const D = counts.order_details;
  const P = counts.products;
  const rng = ctx.rng('stock.plan');
  const layout = warehouseLayout(places, counts.shops, counts.cash_registers, counts.warehouses);
  const stockups = planStockups(ctx, layout, U, rng);

  let others = D === 0 ? Hs : Math.min(Hs, Math.max(U, Math.round(Hs * 0.25)));
  const planned = Math.min(D, Hs - others);
  others = Hs - planned;
  const corrections = Math.min(others, Math.round(Hs * 0.02));

  const rows = new Rows(Hs + (Hs >> 2));
  const saleRows = new Int32Array(planned);
  const stock = new Float64Array(counts.warehouses * P);
  /** The latest delivery row of each warehouse and product, -1 for none. */
  const lastDelivery = new Int32Array(counts.warehouses * P).fill(-1);
  const warehouseOfRegister = Int32Array.from({ length: counts.cash_registers }, (_, r) => layout.warehouseOfShop[places.shopOfRegister(r)] as number);
  const rowsOfStockup = new Int32Array(U);
  const byWarehouse = stockupsByWarehouse(stockups.warehouse, counts.warehouses);

  /** Delivers `need` (or more: whole cases and a reserve) of p to w before time t. */
  const restock = (w: number, p: number, need: number, t: number) => {
    const size = Math.max(1, catalog.caseOf[p] as number);
    const amount = Math.ceil(need / size) * size + size * rng.int(0, 2);
    const u = latestStockupBefore(byWarehouse[w] as number[], stockups.times, rowsOfStockup, t);
    const last = lastDelivery[w * P + p] as number;
    if (u < 0) {
      rows.add(CORRECTION, -1, p, amount, w, t);
    } else if (last >= 0 && rows.kind[last] === RECEIPT && rows.ref[last] === u) {
      // The stock-up already delivers this product: it delivered more.
      rows.quantity[last] = (rows.quantity[last] as number) + amount;
    } else {
      lastDelivery[w * P + p] = rows.add(RECEIPT, u, p, amount, w, (stockups.times[u] as number) + 1 + (rowsOfStockup[u] as number));
      rowsOfStockup[u] = (rowsOfStockup[u] as number) + 1;
    }
    stock[w * P + p] = (stock[w * P + p] as number) + amount;
  };

  deliverToCentral(Math.max(0, others - corrections), rows, stockups, layout.central, catalog, lastDelivery, rowsOfStockup, P, rng);

  const walkStart = rows.length;
  // Walk the sold items (an even sample of them) and the inventory counts in time order.
  const countTimes = spreadTimes(corrections, ctx.from + 8 * DAY, ctx.to - DAY, ctx.rng('stock_history.corrections'));
  const recent = new Int32Array(64).fill(-1);
  for (let k = 0, c = 0; k < planned || c < corrections; ) {
    const d = k < planned ? Math.floor((k * D) / planned) : -1;
    const saleTime = d >= 0 ? (sales.order_details.times[d] as number) : Infinity;
    if (c < corrections && (countTimes[c] as number) < saleTime) {
      const t = countTimes[c++] as number;
      const pair = recent[rng.int(0, recent.length - 1)] as number;
      const w = pair >= 0 ? Math.floor(pair / P) : (layout.selling[0] ?? 0);
      const p = pair >= 0 ? pair % P : catalog.productAt(t, rng);
      const unit = catalog.unitOf[p] === 1 ? 0.25 : 1;
      const held = stock[w * P + p] as number;
      // A count finds a little missing when there is stock, else a forgotten piece.
      const change = held >= unit ? -Math.min(held, unit * rng.int(1, 2)) : unit;
      rows.add(CORRECTION, -1, p, change, w, t);
      stock[w * P + p] = held + change;
      continue;
    }
    const p = sales.productOfDetail[d] as number;
    const q = sales.quantityOfDetail[d] as number;
    const w = warehouseOfRegister[sales.registerOfOrder(sales.orderOfDetail[d] as number)] as number;
    const held = stock[w * P + p] as number;
    if (held < q) restock(w, p, q - held, saleTime);
    stock[w * P + p] = (stock[w * P + p] as number) - q;
    saleRows[k] = rows.add(SALE, d, p, -q, w, saleTime);
    recent[k % recent.length] = w * P + p;
    k++;
  }

  const walkEnd = rows.length;

  // Exactly the size's rows: drop an even share of sale rows, or deliver more.
  const surplus = rows.length - Hs;
  const dropped = new Uint8Array(rows.length);
  for (let j = 0; j < surplus; j++) dropped[saleRows[Math.floor((j * saleRows.length) / surplus)] as number] = 1;
  if (surplus < 0) deliverMore(-surplus, rows, stockups, layout, catalog, rowsOfStockup, P, rng, ctx);

  return finish(rows, dropped, [walkStart, walkEnd], stockups, layout, sales);
}

/** The central warehouse's deliveries: goods kept in reserve, a few products each, at most `reserve` rows. */
function deliverToCentral(
  reserve: number,
  rows: Rows,
  stockups: Stockups,
  central: number,
  catalog: Catalog,
  lastDelivery: Int32Array,
  rowsOf: Int32Array,
  P: number,
  rng: Rng,
): void {
  let added = 0;
  for (let u = 0; u < rowsOf.length && central >= 0; u++) {
    if (stockups.warehouse[u] !== central) continue;
    const t = stockups.times[u] as number;
    for (let n = rng.int(2, 5); n > 0 && added < reserve; n--) {
      const p = goodsAt(catalog, t, rng);
      const size = Math.max(1, catalog.caseOf[p] as number);
      const last = lastDelivery[central * P + p] as number;
      if (last >= 0 && rows.ref[last] === u) {
        rows.quantity[last] = (rows.quantity[last] as number) + size;
        continue;
      }
      lastDelivery[central * P + p] = rows.add(RECEIPT, u, p, size * rng.int(2, 6), central, t + 1 + (rowsOf[u] as number));
      rowsOf[u] = (rowsOf[u] as number) + 1;
      added++;
    }
  }
}

/** Retail goods available at time t when there are any (a few tries), else any product. */
function goodsAt(catalog: Catalog, t: number, rng: Rng): number {
  let p = catalog.productAt(t, rng);
  for (let attempt = 0; attempt < 12 && catalog.goodsOf[p] !== 1; attempt++) p = catalog.productAt(t, rng);
  return p;
}

/** Which warehouse each shop uses, which warehouses sell, and a register to book each warehouse's stock. */
interface WarehouseLayout {
  warehouseOfShop: Int32Array;
  /** Warehouses that shops with registers sell from, each once. */
  selling: number[];
  /** The central warehouse when it only keeps stock in reserve (several warehouses), else -1. */
  central: number;
  /** A register of a shop using warehouse w (register 0 when none does). */
  registerOfWarehouse: Int32Array;
  /** Registers of shops using warehouse w. */
  registersOf: number[][];
}

function warehouseLayout(places: Places, S: number, R: number, W: number): WarehouseLayout {
  const warehouseOfShop = Int32Array.from({ length: S }, (_, s) => places.warehouseOfShop(s));
  const registersOf: number[][] = Array.from({ length: W }, () => []);
  for (let r = 0; r < R; r++) registersOf[warehouseOfShop[places.shopOfRegister(r)] as number]?.push(r);
  const selling = registersOf.map((list, w) => (list.length > 0 ? w : -1)).filter((w) => w >= 0);
  const central = W > 1 && !selling.includes(0) ? 0 : -1;
  // The central warehouse belongs to shop 0: its stock is booked at shop 0's first register, 0.
  const registerOfWarehouse = Int32Array.from({ length: W }, (_, w) => registersOf[w]?.[0] ?? 0);
  return { warehouseOfShop, selling, central, registerOfWarehouse, registersOf };
}

interface Stockups {
  times: Float64Array;
  warehouse: Int32Array;
  register: Int32Array;
}

/**
 * Stock-ups: each selling warehouse opens with a delivery on the first day; the rest come over the
 * years, every fourth to the central warehouse when there is one.
 */
function planStockups(ctx: TenantContext, layout: WarehouseLayout, U: number, rng: Rng): Stockups {
  const opening = Math.min(U, layout.selling.length);
  const times = new Float64Array(U);
  for (let u = 0; u < opening; u++) times[u] = ctx.from + DAY + u * HOUR;
  times.set(spreadTimes(U - opening, ctx.from + 2 * DAY, ctx.to - DAY, ctx.rng('stockup.times')), opening);
  strictlyIncreasing(times);
  const warehouse = new Int32Array(U);
  const register = new Int32Array(U);
  for (let u = 0; u < U; u++) {
    const w =
      u < opening
        ? (layout.selling[u] as number)
        : layout.central >= 0 && u % 4 === 3
          ? layout.central
          : layout.selling.length > 0
            ? rng.pick(layout.selling)
            : 0;
    warehouse[u] = w;
    const registers = layout.registersOf[w] ?? [];
    register[u] = registers.length > 0 ? rng.pick(registers) : (layout.registerOfWarehouse[w] as number);
  }
  return { times, warehouse, register };
}

function stockupsByWarehouse(warehouse: Int32Array, W: number): number[][] {
  const out: number[][] = Array.from({ length: W }, () => []);
  warehouse.forEach((w, u) => out[w]?.push(u));
  return out;
}

/**
 * The latest stock-up of a warehouse whose delivery rows (one more included) all come before
 * time t, or -1. `list` is in time order.
 */
function latestStockupBefore(list: number[], times: Float64Array, rowsOf: Int32Array, t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[list[mid] as number] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    const u = list[i] as number;
    if ((times[u] as number) + (rowsOf[u] as number) + 2 < t) return u;
  }
  return -1;
}

/**
 * Adds `count` delivery rows: first to the central warehouse's stock-ups and to stock-ups that
 * delivered nothing yet, then round the stock-ups; products each stock-up does not deliver yet.
 * Without stock-ups, stock found by inventory counts.
 */
function deliverMore(
  count: number,
  rows: Rows,
  stockups: Stockups,
  layout: WarehouseLayout,
  catalog: Catalog,
  rowsOf: Int32Array,
  P: number,
  rng: Rng,
  ctx: TenantContext,
): void {
  const U = rowsOf.length;
  if (U === 0 || P === 0) {
    const times = spreadTimes(count, ctx.from + DAY, ctx.to - DAY, ctx.rng('stock_history.found'));
    for (let j = 0; j < count; j++) {
      const t = times[j] as number;
      const p = catalog.productAt(t, rng);
      rows.add(CORRECTION, -1, p, catalog.unitOf[p] === 1 ? 0.25 : 1, layout.selling[0] ?? 0, t);
    }
    return;
  }
  const delivered = new Set<number>();
  for (let i = 0; i < rows.length; i++) if (rows.kind[i] === RECEIPT) delivered.add((rows.ref[i] as number) * P + (rows.product[i] as number));
  const order = [...Array(U).keys()].sort((a, b) => rank(a) - rank(b) || a - b);
  function rank(u: number): number {
    return stockups.warehouse[u] === layout.central ? 0 : rowsOf[u] === 0 ? 1 : 2;
  }
  for (let j = 0; j < count; j++) {
    const u = order[j % U] as number;
    const t = stockups.times[u] as number;
    let p = catalog.productAt(t + 1, rng);
    for (let step = 0; delivered.has(u * P + p) && step < P; step++) p = (p + 1) % P;
    const size = Math.max(1, catalog.caseOf[p] as number);
    rows.add(RECEIPT, u, p, size * rng.int(1, 4), stockups.warehouse[u] as number, t + 1 + (rowsOf[u] as number));
    delivered.add(u * P + p);
    rowsOf[u] = (rowsOf[u] as number) + 1;
  }
}

/**
 * Rows outside the walk in the order of their stock-up, each stock-up's in the order they were
 * added (their times are the stock-up's plus 1, 2, 3... ms): time order, but for overlaps. Rows
 * without a stock-up keep their order, after them.
 */
function byStockup(rows: Rows, list: Int32Array, U: number): Int32Array {
  const starts = new Int32Array(U + 2);
  const bucket = (i: number) => (rows.kind[i] === RECEIPT ? (rows.ref[i] as number) : U);
  for (const i of list) starts[bucket(i) + 1] = (starts[bucket(i) + 1] as number) + 1;
  for (let u = 1; u < starts.length; u++) starts[u] = (starts[u] as number) + (starts[u - 1] as number);
  const out = new Int32Array(list.length);
  for (const i of list) {
    const b = bucket(i);
    out[starts[b] as number] = i;
    starts[b] = (starts[b] as number) + 1;
  }
  return out;
}

/**
 * Puts the kept rows in time order (deliveries before a sale at the same ms, stock taken out
 * after). The walk made its sales and counts in that order already, so only the deliveries (and
 * rows added outside the walk) are sorted, then merged in.
 */
function finish(rows: Rows, dropped: Uint8Array, walk: readonly [number, number], stockups: Stockups, layout: WarehouseLayout, sales: Sales): StockPlan {
  const key = rows.key;
  const inOrder = new Int32Array(rows.length);
  const restAll = new Int32Array(rows.length);
  let inOrderCount = 0;
  let restCount = 0;
  for (let i = 0; i < rows.length; i++) {
    if (dropped[i] === 1) continue;
    if (i >= walk[0] && i < walk[1] && rows.kind[i] !== RECEIPT) inOrder[inOrderCount++] = i;
    else restAll[restCount++] = i;
  }
  const rest = byStockup(rows, restAll.subarray(0, restCount), stockups.times.length);
  for (let b = 1; b < restCount; b++) {
    // Deliveries of one stock-up follow each other by the ms; should two stock-ups overlap, sort.
    if ((key[rest[b] as number] as number) < (key[rest[b - 1] as number] as number)) {
      rest.sort((x, y) => (key[x] as number) - (key[y] as number) || x - y);
      break;
    }
  }
  const order = new Int32Array(inOrderCount + restCount);
  for (let h = 0, a = 0, b = 0; h < order.length; h++) {
    const takeRest = b < restCount && (a >= inOrderCount || (key[rest[b] as number] as number) < (key[inOrder[a] as number] as number));
    order[h] = takeRest ? (rest[b++] as number) : (inOrder[a++] as number);
  }
  const n = order.length;
  const plan: StockPlan = {
    kind: new Uint8Array(n),
    ref: new Int32Array(n),
    product: new Int32Array(n),
    quantity: new Float32Array(n),
    warehouse: new Int32Array(n),
    times: new Float64Array(n),
    register: new Int32Array(n),
    stockupTimes: stockups.times,
    stockupWarehouse: stockups.warehouse,
    stockupRegister: stockups.register,
  };
  for (let h = 0; h < n; h++) {
    const i = order[h] as number;
    const kind = rows.kind[i] as number;
    const ref = rows.ref[i] as number;
    const w = rows.warehouse[i] as number;
    plan.kind[h] = kind;
    plan.ref[h] = ref;
    plan.product[h] = rows.product[i] as number;
    plan.quantity[h] = rows.quantity[i] as number;
    plan.warehouse[h] = w;
    plan.times[h] = rows.time(i);
    plan.register[h] =
      kind === SALE ? sales.registerOfOrder(sales.orderOfDetail[ref] as number) : kind === RECEIPT ? (stockups.register[ref] as number) : (layout.registerOfWarehouse[w] as number);
  }
  strictlyIncreasing(plan.times);
  return plan;
}
