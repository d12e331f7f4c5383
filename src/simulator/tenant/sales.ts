/**
 * Shifts, orders, order items and payments: the registers' sales history. Closed shifts occupy
 * their own slots of the history; orders happen inside them, items are added right after the
 * order opens, payments follow its close. Each register also has one open shift (started just
 * before the clock's start) where new sales go. Orders, items and payments are built on demand
 * from compact arrays, so a million-record tenant costs a few tens of MB.
 */
import type { SimRecord } from '../record.js';
import type { Catalog } from './catalog.js';
import type { People } from './people.js';
import type { Places } from './places.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';
import { DAY, distribute, strictlyIncreasing } from './timeline.js';

/** `id_payment` codes named by the spec: cash, credit card, a payment-terminal provider. */
export const PAYMENT_CODES = [221, 222, 238] as const;

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
}

const HOUR = 3_600_000;

/** Generates the sales history. */
export function generateSales(ctx: TenantContext, places: Places, people: People, catalog: Catalog): Sales {
  const { counts, idC } = ctx;
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

  // Items: most orders have one to three, some many.
  const itemStarts = distribute(D, O, rng, (r) => {
    const x = r.next();
    return x < 0.45 ? 1 : x < 0.75 ? 2 : x < 0.9 ? 3 : x < 0.97 ? 5 : 9;
  });
  const detailTime = new Float64Array(D);
  const orderOfDetail = new Int32Array(D);
  const productOfDetail = new Int32Array(D);
  const quantityOfDetail = new Float32Array(D);
  const priceOfDetail = new Int32Array(D);
  const orderTotal = new Float64Array(O);
  const orderTotalExcl = new Float64Array(O);
  for (let i = 0; i < O; i++) {
    const t = orderTime[i] as number;
    for (let d = itemStarts[i] as number, j = 0; d < (itemStarts[i + 1] as number); d++, j++) {
      detailTime[d] = t + 1 + j;
      orderOfDetail[d] = i;
      const p = catalog.productAt(t, rng);
      productOfDetail[d] = p;
      const x = rng.next();
      const quantity = catalog.unitOf[p] === 1 ? 0.25 * rng.int(1, 8) : x < 0.85 ? 1 : x < 0.95 ? 2 : 3;
      quantityOfDetail[d] = quantity;
      const price = catalog.priceAt(p, t);
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

  const id = (table: TableData, i: number): string => (i < 0 ? '0' : table.id(i));
  const shopOfOrder = (i: number): number => places.shopOfRegister(shiftRegister[orderShift[i] as number] as number);

  shifts.eager((s): SimRecord => {
    const open = s >= closed;
    const r = shiftRegister[s] as number;
    const opened = shiftOpen[s] as number;
    const closedAt = open ? null : opened + Math.floor(shiftLength[s] as number);
    if (closedAt !== null) shifts.versions[s] = closedAt;
    const sr = ctx.rng('shifts', s);
    const cashStart = sr.int(2, 10) * 1_000_000;
    return Object.assign(commonFields(shifts, s, idC), {
      id_cash_register: places.cash_registers.id(r),
      id_shop: places.shops.id(places.shopOfRegister(r)),
      id_employee: people.employees.id(shiftEmployee[s] as number),
      date_opened: opened,
      date_closed: closedAt,
      cash_start: cashStart,
      cash_end: closedAt === null ? null : cashStart + sr.int(0, 40) * 100_000,
      shift_number: s + 1,
      note: null,
    });
  });

  orders.generated = {
    build(i) {
      const rng = ctx.rng('orders', i);
      const s = orderShift[i] as number;
      const r = shiftRegister[s] as number;
      const shop = places.shopOfRegister(r);
      const parks = places.parkLocationsOfShop(shop);
      const dineIn = parks.length > 0 && rng.chance(0.5);
      const employee = shiftEmployee[s] as number;
      const close = orderClose[i] as number;
      const canceled = orderCanceled[i] as number;
      const total = orderTotal[i] as number;
      const excl = orderTotalExcl[i] as number;
      const items = (itemStarts[i + 1] as number) - (itemStarts[i] as number);
      const record: SimRecord = {
        id: orders.id(i),
        id_c: idC,
        _t: 'orders',
        _v: orders.versions[i] as number,
        _d: 0,
        pgx: `${idC}:${orders.id(i)}`,
        date_created: orders.times[i] as number,
        id_shop: places.shops.id(shop),
        id_cash_register: places.cash_registers.id(r),
        id_shift: shifts.id(s),
        id_employee: people.employees.id(employee),
        id_employee_served: people.employees.id(rng.chance(0.8) ? employee : people.employeeAt(orderTime[i] as number, rng)),
        id_park_location: dineIn ? places.park_locations.id(rng.pick(parks)) : '0',
        currency: places.currencyOfShop(shop),
        id_address_invoice: '0',
        id_canceled_order: '0',
        id_customer: id(people.customers, orderCustomer[i] as number),
        id_tax_report: '0',
        id_address_delivery: '0',
        id_shipping: '0',
        id_superseded: '0',
        total_points: 0,
        total_credits: 0,
        total_profit_tax_incl: Math.round(total * 0.55),
        total_profit_tax_excl: Math.round(excl * 0.55),
        total_tax_gst: 0,
        total_shipping_tax_incl: 0,
        total_shipping_tax_excl: 0,
        total_tax_service: 0,
        total_discounts_tax_incl: 0,
        total_discounts_tax_excl: 0,
        total_tax_pst: total - excl,
        total_tax_luxury: 0,
        total_tax_eco: 0,
        total_paid_real: canceled ? 0 : total,
        total_paid_tax_incl: total,
        total_paid_tax_excl: excl,
        total_tip: orderPayment[i] === 1 && rng.chance(0.2) ? rng.int(1, 5) * 10_000 : 0,
        total_wrapping_tax_incl: 0,
        total_wrapping_tax_excl: 0,
        total_products: excl,
        id_payment: PAYMENT_CODES[orderPayment[i] as number],
        dine_in: dineIn,
        conversion_rate: 1,
        date_closed: close,
        date_paid: close,
        date_canceled: canceled || null,
        date_fiscalized: close + 1,
        date_tax_reported: null,
        date_loc_acq: null,
        date_collected: null,
        date_due_pay: null,
        date_emailed: null,
        invoice_number: i + 1,
        order_serial_number: i + 1,
        total_people_seated: dineIn ? rng.int(1, 4) : null,
        short_code: String((i % 999) + 1).padStart(3, '0'),
        geohash: null,
        note: rng.chance(0.03) ? 'Bez cibule, prosím.' : null,
        coupon_code: null,
        coupon_source: null,
        shipping_number: null,
        customer_zip: null,
        summary: items === 1 ? '1 položka' : `${items} položek`,
        tags: null,
        _u_dyn: orders.versions[i] as number,
      };
      return record;
    },
    peek(i, field) {
      switch (field) {
        case 'id_cash_register':
          return places.cash_registers.id(shiftRegister[orderShift[i] as number] as number);
        case 'id_shop':
          return places.shops.id(shopOfOrder(i));
        case 'id_payment':
          return PAYMENT_CODES[orderPayment[i] as number];
        case 'date_created':
          return orderTime[i];
        case '_d':
          return 0;
        default:
          return undefined;
      }
    },
  };

  details.generated = {
    build(d) {
      const i = orderOfDetail[d] as number;
      const s = orderShift[i] as number;
      const r = shiftRegister[s] as number;
      const shop = places.shopOfRegister(r);
      const p = productOfDetail[d] as number;
      const product = catalog.product(p);
      const tax = catalog.taxRateOf[p] as number;
      const price = priceOfDetail[d] as number;
      const quantity = quantityOfDetail[d] as number;
      const line = Math.round(price * quantity);
      const canceled = orderCanceled[i] as number;
      const record: SimRecord = {
        id: details.id(d),
        id_c: idC,
        _t: 'order_details',
        _v: details.versions[d] as number,
        _d: 0,
        pgx: `${idC}:${details.id(d)}`,
        date_created: details.times[d] as number,
        id_order: orders.id(i),
        id_shop: places.shops.id(shop),
        id_cash_register: places.cash_registers.id(r),
        id_shift: shifts.id(s),
        id_product: product.id,
        id_category: product.id_category,
        id_employee: people.employees.id(shiftEmployee[s] as number),
        id_warehouse: places.warehouses.id(places.warehouseOfShop(shop)),
        currency: places.currencyOfShop(shop),
        id_customer: id(people.customers, orderCustomer[i] as number),
        id_order_details_parent: '0',
        id_payment: PAYMENT_CODES[orderPayment[i] as number],
        total_points: 0,
        total_credits: 0,
        total_tax_pst: line - Math.round(line / tax),
        total_tax_luxury: 0,
        total_tax_eco: 0,
        product_name: product.name,
        product_name_alternative: '',
        product_unit: catalog.unitOf[p],
        product_price_original_tax_excl: Math.round(price / tax),
        product_price_billed_tax_excl: Math.round(price / tax),
        product_price_billed_tax_incl: price,
        reduction_amount_tax_incl: 0,
        reduction_amount_tax_excl: 0,
        reduction_percent: 0,
        order_number: d - (itemStarts[i] as number) + 1,
        product_quantity: quantity,
        tax_pst_rate: tax,
        product_bitmask: 0,
        product_item_type: product.item_type,
        date_paid: orderClose[i],
        date_canceled: canceled || null,
        date_timing_started: null,
        date_updated: details.versions[d],
        date_item_printed: null,
        date_collected: null,
        date_voided: null,
        product_purchase_price_tax_excl: Math.round((price * 0.45) / tax),
        product_attribute_id: null,
        total_weight: null,
        product_barcode: product.barcode,
        product_upc: null,
        product_ean13: product.ean13,
        tags: null,
        note: null,
        reference_code: null,
      };
      return record;
    },
    peek(d, field) {
      if (field === 'id_order') return orders.id(orderOfDetail[d] as number);
      if (field === '_d') return 0;
      return undefined;
    },
  };

  payments.generated = {
    build(k) {
      const i = orderOfPayment(k);
      const s = orderShift[i] as number;
      const r = shiftRegister[s] as number;
      const first = firstPayment(i);
      const parts = firstPayment(i + 1) - first;
      const total = orderTotal[i] as number;
      const share = Math.floor(total / parts);
      const code = orderPayment[i] as number;
      const rng = ctx.rng('transactions', k);
      const record: SimRecord = {
        id: payments.id(k),
        id_c: idC,
        _t: 'transactions',
        _v: payments.versions[k] as number,
        _d: 0,
        pgx: `${idC}:${payments.id(k)}`,
        date_created: payments.times[k] as number,
        transaction_type: 1,
        payment_type: code,
        id_employee: people.employees.id(shiftEmployee[s] as number),
        id_shop: places.shops.id(places.shopOfRegister(r)),
        id_cash_register: places.cash_registers.id(r),
        id_shift: shifts.id(s),
        id_customer: id(people.customers, orderCustomer[i] as number),
        id_order: orders.id(i),
        total_amount: k === first ? total - share * (parts - 1) : share,
        note: null,
        transaction_code: `TX${String(k + 1).padStart(8, '0')}`,
        reference_code: code === 0 ? null : rng.uint32().toString(36).toUpperCase(),
      };
      return record;
    },
  };

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
  };
}
