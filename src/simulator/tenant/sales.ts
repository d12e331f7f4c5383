/**
 * Shifts, orders, order items and payments: the registers' sales history. A shop sells every day:
 * on each trading day every register opens a shift, sells through the day's selling hours (its
 * orders interleaved with the other registers' orders) and closes it; the last trading day ends just
 * before the clock's start, so each register's history reaches up to it. Items are added right after
 * an order opens, payments follow its close. Each register also has one open shift (started just
 * before the clock's start) where new sales go. Orders, items and payments are built on demand from
 * compact arrays, so a million-record tenant costs a few tens of MB.
 */
import type { Catalog } from './catalog.js';
import type { People } from './people.js';
import type { Places } from './places.js';
import type { Rng } from '../rng.js';
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
  const rng = ctx.rng('sales.plan');
  const shiftPlan = planShifts(ctx, people, rng);
  const orderPlan = planOrders(ctx, people, shiftPlan, rng);
  const pickerOfShop = shopPickers(ctx, places, catalog);
  const itemPlan = planItems(ctx, places, catalog, shiftPlan, orderPlan, pickerOfShop, rng);
  const paymentPlan = planPayments(ctx, orderPlan);
  const { orderReceipt, lastReceipt } = numberReceipts(ctx, shiftPlan, orderPlan);
  const plan: SalesPlan = { ...shiftPlan, ...orderPlan, ...itemPlan, ...paymentPlan, orderReceipt };
  buildSalesRecords(ctx, places, people, catalog, plan);

  const { closed, shiftRegister, shiftEmployee } = shiftPlan;
  const { orderShift } = orderPlan;
  return {
    shifts: shiftPlan.shifts,
    orders: orderPlan.orders,
    order_details: itemPlan.details,
    transactions: paymentPlan.payments,
    orderOfDetail: itemPlan.orderOfDetail,
    productOfDetail: itemPlan.productOfDetail,
    quantityOfDetail: itemPlan.quantityOfDetail,
    registerOfOrder: (i) => shiftRegister[orderShift[i] as number] as number,
    employeeOfOrder: (i) => shiftEmployee[orderShift[i] as number] as number,
    openShiftOf: (r) => closed + r,
    lastReceiptOf: (r) => lastReceipt[r] as number,
    pickerOfShop,
  };
}

type ShiftPlan = Pick<SalesPlan, 'closed' | 'shifts' | 'shiftOpen' | 'shiftLength' | 'shiftRegister' | 'shiftEmployee'> & {
  days: TradingDays;
  /** The closed shifts of trading day k are dayStarts[k] .. dayStarts[k + 1] - 1. */
  dayStarts: Int32Array;
};
type OrderPlan = Pick<SalesPlan, 'orders' | 'orderTime' | 'orderClose' | 'orderShift' | 'orderCustomer' | 'orderPayment' | 'orderCanceled'>;
type ItemPlan = Pick<SalesPlan, 'itemStarts' | 'details' | 'orderOfDetail' | 'productOfDetail' | 'quantityOfDetail' | 'priceOfDetail' | 'orderTotal' | 'orderTotalExcl'>;
type PaymentPlan = Pick<SalesPlan, 'payments' | 'firstPayment' | 'orderOfPayment'>;

/** How long a trading day's selling lasts, when the history leaves room for it. */
const SELLING_HOURS = 10 * HOUR;
/** How long before the end of the history the last trading day's selling ends. */
const LAST_DAY_END = 2 * HOUR;
/** The registers of a day open their shifts one after another, this far apart, before the selling starts. */
const REGISTER_STAGGER = 20_000;
/** The longest an order stays open; registers close their shifts once their last order has closed. */
const LONGEST_ORDER = 15 * 60_000;

/** The trading days of the history, oldest first: when each day's selling starts, and how long it lasts. */
interface TradingDays {
  /** Start of each day's selling hours (ms), oldest day first. */
  start: Float64Array;
  /** Length of the selling hours of every day (ms). */
  length: number;
}

/**
 * `n` trading days reaching back from just before the end of the history: the most recent ones
 * day after day, older ones thinning out towards its beginning (a sixth-power curve), so that the
 * history still spans its years while the recent weeks, which an app shows first, have every day.
 */
function tradingDays(ctx: TenantContext, n: number): TradingDays {
  const last = ctx.to - LAST_DAY_END;
  const room = last - (ctx.from + 7 * DAY);
  // A day apart when the history has room for n days, closer when it does not (custom sizes).
  const step = n > 1 ? Math.min(DAY, room / (n - 1)) : DAY;
  const length = Math.min(SELLING_HOURS, 0.8 * step);
  const extraSteps = n > 1 ? Math.max(0, Math.floor(room / step) - (n - 1)) : 0;
  const start = new Float64Array(n);
  for (let back = 0; back < n; back++) {
    const steps = back + (n > 1 ? Math.floor(extraSteps * (back / (n - 1)) ** 6) : 0);
    start[n - 1 - back] = last - steps * step - length;
  }
  return { start, length };
}

/**
 * Shifts: on each trading day every register opens one before the selling starts and closes it
 * after the selling ends; then one open shift per register. When the closed shifts do not fill
 * the oldest day, only some registers work that day; each register's last closed shift is on the
 * most recent day.
 */
function planShifts(ctx: TenantContext, people: People, rng: Rng): ShiftPlan {
  const { counts } = ctx;
  const R = counts.cash_registers;
  const H = counts.shifts;
  const closed = H - R;
  const dayCount = Math.ceil(closed / R);
  const days = tradingDays(ctx, dayCount);
  const stagger = Math.min(REGISTER_STAGGER, HOUR / R);
  const shiftOpen = new Float64Array(H);
  const shiftLength = new Float64Array(H);
  const shiftRegister = new Int32Array(H);
  const shiftEmployee = new Int32Array(H);
  const dayStarts = new Int32Array(dayCount + 1);
  const oldestDay = closed - (dayCount - 1) * R;
  const firstRegister = rng.int(0, R - 1);
  let next = 0;
  for (let day = 0; day < dayCount; day++) {
    dayStarts[day] = next;
    const working = day === 0 ? oldestDay : R;
    const selling = days.start[day] as number;
    for (let k = 0; k < working; k++, next++) {
      shiftRegister[next] = day === 0 ? (firstRegister + k) % R : k;
      shiftOpen[next] = selling - (working - k) * stagger;
      shiftLength[next] = selling + days.length + LONGEST_ORDER + (k + 1) * stagger - (shiftOpen[next] as number);
    }
  }
  dayStarts[dayCount] = closed;
  for (let r = 0; r < R; r++) {
    shiftOpen[closed + r] = ctx.to + r * 1000;
    shiftRegister[closed + r] = r;
  }
  strictlyIncreasing(shiftOpen);
  for (let s = 0; s < H; s++) shiftEmployee[s] = people.employeeAt(shiftOpen[s] as number, rng);
  const shifts = new TableData('shifts', shiftOpen, ctx.rng('shifts.ids'));
  return { closed, shifts, shiftOpen, shiftLength, shiftRegister, shiftEmployee, days, dayStarts };
}

/**
 * Orders inside closed shifts: each shift gets its share, then on each trading day the day's
 * orders are spread over its selling hours and dealt out to its registers' shifts in a random
 * order. An order stays open for a tenth of the time between its register's orders (at most a
 * quarter of an hour), the same for every order of the day, so orders close in the order they
 * opened. Some have a customer, a few are canceled.
 */
function planOrders(ctx: TenantContext, people: People, { closed, days, dayStarts }: ShiftPlan, rng: Rng): OrderPlan {
  const O = ctx.counts.orders;
  const orderStarts = distribute(O, closed, rng, (r) => 0.3 + r.next() * 1.4);
  const orderTime = new Float64Array(O);
  const orderClose = new Float64Array(O);
  const orderShift = new Int32Array(O);
  for (let day = 0; day + 1 < dayStarts.length; day++) {
    const firstShift = dayStarts[day] as number;
    const endShift = dayStarts[day + 1] as number;
    const first = orderStarts[firstShift] as number;
    const n = (orderStarts[endShift] as number) - first;
    // Each shift's orders, then shuffled among the day's registers (Fisher-Yates).
    for (let shift = firstShift; shift < endShift; shift++) orderShift.fill(shift, orderStarts[shift], orderStarts[shift + 1]);
    for (let j = n - 1; j > 0; j--) {
      const k = rng.int(0, j);
      const swap = orderShift[first + j] as number;
      orderShift[first + j] = orderShift[first + k] as number;
      orderShift[first + k] = swap;
    }
    const length = days.length;
    const selling = days.start[day] as number;
    const open = Math.min(LONGEST_ORDER, (0.1 * length * (endShift - firstShift)) / Math.max(1, n));
    for (let j = 0; j < n; j++) {
      const i = first + j;
      orderTime[i] = selling + (length * (j + 0.1 + 0.8 * rng.next())) / n;
      orderClose[i] = Math.floor(orderTime[i] + open) + 2;
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
  return { orders, orderTime, orderClose, orderShift, orderCustomer, orderPayment, orderCanceled };
}

/** What each shop sells, by its kind: one product picker per kind, made when first asked for. */
function shopPickers(ctx: TenantContext, places: Places, catalog: Catalog): (s: number) => ProductPicker {
  const pickers = new Map<string, ProductPicker>();
  return (s) => {
    const kind = places.kindOfShop(s);
    let picker = pickers.get(kind);
    if (!picker) pickers.set(kind, (picker = createProductPicker(catalog, SHOP_PROFILES[kind], ctx.counts.products)));
    return picker;
  };
}

/**
 * Items: most orders have one to three, some many. Each shop sells what its kind sells, and an
 * order stays within what such a shop takes for one receipt (a café's order is not a catering job).
 */
function planItems(ctx: TenantContext, places: Places, catalog: Catalog, { shiftRegister }: ShiftPlan, { orders, orderTime, orderShift }: OrderPlan, pickerOfShop: (s: number) => ProductPicker, rng: Rng): ItemPlan {
  const O = ctx.counts.orders;
  const D = ctx.counts.order_details;
  const itemStarts = distribute(D, O, rng, (r) => {
    const x = r.next();
    return x < 0.45 ? 1 : x < 0.75 ? 2 : x < 0.9 ? 3 : x < 0.97 ? 5 : 9;
  });
  const detailTime = new Float64Array(D);
  const items: Omit<ItemPlan, 'details'> = {
    itemStarts,
    orderOfDetail: new Int32Array(D),
    productOfDetail: new Int32Array(D),
    quantityOfDetail: new Float32Array(D),
    priceOfDetail: new Int32Array(D),
    orderTotal: new Float64Array(O),
    orderTotalExcl: new Float64Array(O),
  };
  for (let i = 0; i < O; i++) {
    const shop = places.shopOfRegister(shiftRegister[orderShift[i] as number] as number);
    const where: OrderPlace = { currency: places.currencyOfShop(shop), picker: pickerOfShop(shop), cap: SHOP_PROFILES[places.kindOfShop(shop)].maxOrderTotal };
    fillOrder(catalog, items, detailTime, i, orderTime[i] as number, where, rng);
  }
  strictlyIncreasing(detailTime);
  const details = new TableData('order_details', detailTime, ctx.rng('order_details.ids'));
  const { orderOfDetail } = items;
  for (let d = 0; d < D; d++) details.versions[d] = Math.max(detailTime[d] as number, orders.versions[orderOfDetail[d] as number] as number);
  return { ...items, details };
}

/** The shop an order is rung up in: its currency, what it sells, and its largest order (CZK x 1000). */
interface OrderPlace {
  currency: string;
  picker: ProductPicker;
  cap: number;
}

/** Picks order i's items at time t and adds up its totals, keeping its CZK total within the shop's cap. */
function fillOrder(catalog: Catalog, items: Omit<ItemPlan, 'details'>, detailTime: Float64Array, i: number, t: number, { currency, picker, cap }: OrderPlace, rng: Rng): void {
  const { itemStarts, orderOfDetail, productOfDetail, quantityOfDetail, priceOfDetail, orderTotal, orderTotalExcl } = items;
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

/** Payments: transaction k pays order floor(k * O / T); extra ones split a bill. */
function planPayments(ctx: TenantContext, { orderClose }: OrderPlan): PaymentPlan {
  const O = ctx.counts.orders;
  const T = ctx.counts.transactions;
  const firstPayment = (i: number): number => Math.ceil((i * T) / O);
  const orderOfPayment = (k: number): number => Math.floor((k * O) / T);
  const paymentTime = new Float64Array(T);
  for (let k = 0; k < T; k++) {
    const i = orderOfPayment(k);
    paymentTime[k] = (orderClose[i] as number) + 1 + (k - firstPayment(i));
  }
  strictlyIncreasing(paymentTime);
  const payments = new TableData('transactions', paymentTime, ctx.rng('transactions.ids'));
  return { payments, firstPayment, orderOfPayment };
}

/** Receipts are numbered per register, in the order the register printed them. */
function numberReceipts(ctx: TenantContext, { shiftRegister }: ShiftPlan, { orderShift }: OrderPlan): { orderReceipt: Int32Array; lastReceipt: Int32Array } {
  const O = ctx.counts.orders;
  const orderReceipt = new Int32Array(O);
  const lastReceipt = new Int32Array(ctx.counts.cash_registers);
  for (let i = 0; i < O; i++) {
    const r = shiftRegister[orderShift[i] as number] as number;
    lastReceipt[r] = (lastReceipt[r] as number) + 1;
    orderReceipt[i] = lastReceipt[r];
  }
  return { orderReceipt, lastReceipt };
}
