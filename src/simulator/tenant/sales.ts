/**
 * Shifts, orders, order items and payments: the registers' sales history. Closed shifts occupy
 * their own slots of the history; orders happen inside them, items are added right after the
 * order opens, payments follow its close. Each register also has one open shift (started just
 * before the clock's start) where new sales go. Orders, items and payments are built on demand
 * from compact arrays, so a million-record tenant costs a few tens of MB.
 */
import type { Catalog } from './catalog.js';
import type { People } from './people.js';
import type { Places } from './places.js';
import type { TenantContext } from './tenant-context.js';
import { createProductPicker, type ProductPicker } from './product-picker.js';
import { buildSalesRecords, type SalesPlan } from './sales-records.js';
import { SHOP_PROFILES, inShopCurrency, saleQuantity } from './shop-profiles.js';
import { TableData } from './table-data.js';
import { DAY, distribute, strictlyIncreasing } from './timeline.js';

/** Generated sales and the facts stock history needs. */
export interface Sales {
  shifts: TableData;
  orders: TableData;
  order_details: TableData;
  transactions: TableData;
  /** Order index of item d. */
  orderOfDetail: Int32Array;
  /** Product index of item d. */
  productOfDetail: Int32Array;
  /** Quantity of item d. */
  quantityOfDetail: Float32Array;
  /** Register index of order i. */
  registerOfOrder(i: number): number;
  /** Employee index of order i. */
  employeeOfOrder(i: number): number;
  /** Index of register r's open shift. */
  openShiftOf(r: number): number;
  /** The last receipt number register r printed (its orders are numbered 1, 2, ... in time order). */
  lastReceiptOf(r: number): number;
  /** What shop s sells (its kind's profile). */
  pickerOfShop(s: number): ProductPicker;
}

const HOUR = 3_600_000;

/** Generates the sales history. */
export function generateSales(ctx: TenantContext, places: Places, people: People, catalog: Catalog): Sales {
  const { counts } = ctx;
  const R = counts.cash_registers;
  const H = counts.shifts;
  const closed = H - R;
  const O = counts.orders;
  const D = counts.order_details;
  const T = counts.transactions;

  // Shifts: closed ones in disjoint slots, then one open shift per register.
  const rng = ctx.rng('sales.plan');
  const first = ctx.from + 7 * DAY;
  const slot = (ctx.to - DAY - first) / Math.max(1, closed);
  const shiftOpen = new Float64Array(H);
  const shiftLength = new Float64Array(H);
  const shiftRegister = new Int32Array(H);
  const shiftEmployee = new Int32Array(H);
  for (let s = 0; s < closed; s++) {
    shiftOpen[s] = first + s * slot + (0.02 + rng.next() * 0.03) * slot;
    shiftLength[s] = Math.min(10 * HOUR, 0.9 * slot);
    shiftRegister[s] = rng.int(0, R - 1);
  }
  for (let r = 0; r < R; r++) {
    shiftOpen[closed + r] = ctx.to + r * 1000;
    shiftRegister[closed + r] = r;
  }
  strictlyIncreasing(shiftOpen);
  for (let s = 0; s < H; s++) shiftEmployee[s] = people.employeeAt(shiftOpen[s] as number, rng);
  const shifts = new TableData('shifts', shiftOpen, ctx.rng('shifts.ids'));

  // Orders inside closed shifts, each closing well before the next one opens.
  const orderStarts = distribute(O, closed, rng, (r) => 0.3 + r.next() * 1.4);
  const orderTime = new Float64Array(O);
  const orderClose = new Float64Array(O);
  const orderShift = new Int32Array(O);
  for (let s = 0; s < closed; s++) {
    const n = (orderStarts[s + 1] as number) - (orderStarts[s] as number);
    const length = shiftLength[s] as number;
    for (let j = 0; j < n; j++) {
      const i = (orderStarts[s] as number) + j;
      orderTime[i] = (shiftOpen[s] as number) + (length * (j + 0.1 + 0.8 * rng.next())) / n;
      orderClose[i] = Math.floor((orderTime[i] as number) + Math.min(15 * 60_000, (0.1 * length) / n)) + 2;
      orderShift[i] = s;
    }
  }
  strictlyIncreasing(orderTime);
  const orders = new TableData('orders', orderTime, ctx.rng('orders.ids'));
  const orderCustomer = new Int32Array(O);
  const orderPayment = new Uint8Array(O);
  const orderCanceled = new Float64Array(O);
  for (let i = 0; i < O; i++) {
    const t = orderTime[i] as number;
    orderCustomer[i] = rng.chance(0.4) ? people.customerAt(t, rng) : -1;
    const x = rng.next();
    orderPayment[i] = x < 0.4 ? 0 : x < 0.95 ? 1 : 2;
    orderCanceled[i] = rng.chance(0.02) ? (orderClose[i] as number) + rng.int(60_000, 1_800_000) : 0;
    orders.versions[i] = Math.max(orderClose[i] as number, orderCanceled[i] as number);
  }

  // Items: most orders have one to three, some many. Each shop sells what its kind sells, and an
  // order stays within what such a shop takes for one receipt (a café's order is not a catering job).
  const itemStarts = distribute(D, O, rng, (r) => {
    const x = r.next();
    return x < 0.45 ? 1 : x < 0.75 ? 2 : x < 0.9 ? 3 : x < 0.97 ? 5 : 9;
  });
  const pickers = new Map<string, ProductPicker>();
  const pickerOfShop = (s: number): ProductPicker => {
    const kind = places.kindOfShop(s);
    let picker = pickers.get(kind);
    if (!picker) pickers.set(kind, (picker = createProductPicker(catalog, SHOP_PROFILES[kind], counts.products)));
    return picker;
  };
  const detailTime = new Float64Array(D);
  const orderOfDetail = new Int32Array(D);
  const productOfDetail = new Int32Array(D);
  const quantityOfDetail = new Float32Array(D);
  const priceOfDetail = new Int32Array(D);
  const orderTotal = new Float64Array(O);
  const orderTotalExcl = new Float64Array(O);
  for (let i = 0; i < O; i++) {
    const t = orderTime[i] as number;
    const shop = places.shopOfRegister(shiftRegister[orderShift[i] as number] as number);
    const currency = places.currencyOfShop(shop);
    const picker = pickerOfShop(shop);
    const cap = SHOP_PROFILES[places.kindOfShop(shop)].maxOrderTotal;
    let czkTotal = 0;
    const end = itemStarts[i + 1] as number;
    // Room for the items still to come, at the cheapest price, so the last ones fit too.
    const least = end - (itemStarts[i] as number) > 1 ? catalog.priceAt(picker.cheapest(t), t) : 0;
    for (let d = itemStarts[i] as number, j = 0; d < end; d++, j++) {
      detailTime[d] = t + 1 + j;
      orderOfDetail[d] = i;
      const room = cap - czkTotal - (end - d - 1) * least;
      let p = picker.pick(t, rng);
      let quantity = saleQuantity(catalog.unitOf[p] === 1, catalog.goodsOf[p] === 1, rng);
      let czk = catalog.priceAt(p, t);
      for (let attempt = 0; attempt <= 4 && Math.round(quantity * czk) > room; attempt++) {
        p = attempt < 4 ? picker.pick(t, rng) : picker.cheapest(t);
        quantity = catalog.unitOf[p] === 1 ? 0.25 : 1;
        czk = catalog.priceAt(p, t);
      }
      productOfDetail[d] = p;
      quantityOfDetail[d] = quantity;
      czkTotal += Math.round(quantity * czk);
      const price = inShopCurrency(czk, currency);
      priceOfDetail[d] = price;
      const line = Math.round(quantity * price);
      orderTotal[i] = (orderTotal[i] as number) + line;
      orderTotalExcl[i] = (orderTotalExcl[i] as number) + Math.round(line / (catalog.taxRateOf[p] as number));
    }
  }
  strictlyIncreasing(detailTime);
  const details = new TableData('order_details', detailTime, ctx.rng('order_details.ids'));
  for (let d = 0; d < D; d++) details.versions[d] = Math.max(detailTime[d] as number, orders.versions[orderOfDetail[d] as number] as number);

  // Payments: transaction k pays order floor(k * O / T); extra ones split a bill.
  const firstPayment = (i: number): number => Math.ceil((i * T) / O);
  const orderOfPayment = (k: number): number => Math.floor((k * O) / T);
  const paymentTime = new Float64Array(T);
  for (let k = 0; k < T; k++) {
    const i = orderOfPayment(k);
    paymentTime[k] = (orderClose[i] as number) + 1 + (k - firstPayment(i));
  }
  strictlyIncreasing(paymentTime);
  const payments = new TableData('transactions', paymentTime, ctx.rng('transactions.ids'));

  // Receipts are numbered per register, in the order the register printed them.
  const orderReceipt = new Int32Array(O);
  const lastReceipt = new Int32Array(R);
  for (let i = 0; i < O; i++) {
    const r = shiftRegister[orderShift[i] as number] as number;
    lastReceipt[r] = (lastReceipt[r] as number) + 1;
    orderReceipt[i] = lastReceipt[r] as number;
  }

  const plan: SalesPlan = { closed, shifts, shiftOpen, shiftLength, shiftRegister, shiftEmployee, orders, orderTime, orderClose, orderShift, orderCustomer, orderPayment, orderCanceled, orderTotal, orderTotalExcl, orderReceipt, itemStarts, details, orderOfDetail, productOfDetail, quantityOfDetail, priceOfDetail, payments, firstPayment, orderOfPayment };
  buildSalesRecords(ctx, places, people, catalog, plan);

  return {
    shifts,
    orders,
    order_details: details,
    transactions: payments,
    orderOfDetail,
    productOfDetail,
    quantityOfDetail,
    registerOfOrder: (i) => shiftRegister[orderShift[i] as number] as number,
    employeeOfOrder: (i) => shiftEmployee[orderShift[i] as number] as number,
    openShiftOf: (r) => closed + r,
    lastReceiptOf: (r) => lastReceipt[r] as number,
    pickerOfShop,
  };
}
