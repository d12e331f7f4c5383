/**
 * Records of the sales history, built from the compact plan of `sales.ts`: shifts up front,
 * orders, order items and payments on demand (each from its index and the seed), with cheap
 * `peek`s of the fields that paging and reports filter on.
 */
import type { SimRecord } from '../record.js';
import type { Catalog } from './catalog.js';
import type { People } from './people.js';
import type { Places } from './places.js';
import { PAYMENT_CODES } from './payment-codes.js';
import { inShopCurrency } from './shop-profiles.js';
import type { TenantContext } from './tenant-context.js';
import { commonFields, type TableData } from './table-data.js';

/** The compact arrays the sales generator plans (by index). */
export interface SalesPlan {
  /** Number of closed shifts; open shifts follow, one per register. */
  closed: number;
  shifts: TableData;
  shiftOpen: Float64Array;
  shiftLength: Float64Array;
  shiftRegister: Int32Array;
  shiftEmployee: Int32Array;
  orders: TableData;
  orderTime: Float64Array;
  orderClose: Float64Array;
  orderShift: Int32Array;
  /** Customer index, or -1 for none. */
  orderCustomer: Int32Array;
  /** Index into PAYMENT_CODES. */
  orderPayment: Uint8Array;
  /** Cancellation time, or 0. */
  orderCanceled: Float64Array;
  orderTotal: Float64Array;
  orderTotalExcl: Float64Array;
  /** Receipt number of order i at its register (1, 2, ... per register). */
  orderReceipt: Int32Array;
  /** Items of order i are itemStarts[i] .. itemStarts[i + 1] - 1. */
  itemStarts: Int32Array;
  details: TableData;
  orderOfDetail: Int32Array;
  productOfDetail: Int32Array;
  quantityOfDetail: Float32Array;
  priceOfDetail: Int32Array;
  payments: TableData;
  /** First payment index of order i. */
  firstPayment: (i: number) => number;
  /** Order index of payment k. */
  orderOfPayment: (k: number) => number;
}

/** What the record builders read: the tenant's context, the tables sales refer to, and the plan. */
interface SalesSources {
  ctx: TenantContext;
  places: Places;
  people: People;
  catalog: Catalog;
  plan: SalesPlan;
}

/** Sets the record builders of shifts, orders, order items and payments. */
export function buildSalesRecords(ctx: TenantContext, places: Places, people: People, catalog: Catalog, plan: SalesPlan): void {
  const sources: SalesSources = { ctx, places, people, catalog, plan };
  plan.shifts.eager((s) => shiftRecord(sources, s));
  plan.orders.generated = { build: (i) => orderRecord(sources, i), peek: (i, field) => peekOrder(sources, i, field) };
  plan.details.generated = { build: (d) => detailRecord(sources, d), peek: (d, field) => peekDetail(plan, d, field) };
  plan.payments.generated = { build: (k) => paymentRecord(sources, k) };
}

/** Customer id of an index, or '0' for an order without a customer (-1). */
function customerId(people: People, i: number): string {
  return i < 0 ? '0' : people.customers.id(i);
}

/** Shift s; a closed shift's version is its closing time. */
function shiftRecord({ ctx, places, people, plan }: SalesSources, s: number): SimRecord {
  const { idC } = ctx;
  const { closed, shifts, shiftOpen, shiftLength, shiftRegister, shiftEmployee } = plan;
  const open = s >= closed;
  const r = shiftRegister[s] as number;
  const opened = shiftOpen[s] as number;
  const closedAt = open ? null : opened + Math.floor(shiftLength[s] as number);
  if (closedAt !== null) shifts.versions[s] = closedAt;
  const sr = ctx.rng('shifts', s);
  const currency = places.currencyOfShop(places.shopOfRegister(r));
  const cashStart = inShopCurrency(sr.int(2, 10) * 1_000_000, currency);
  return Object.assign(commonFields(shifts, s, idC), {
    id_cash_register: places.cash_registers.id(r),
    id_shop: places.shops.id(places.shopOfRegister(r)),
    id_employee: people.employees.id(shiftEmployee[s] as number),
    date_opened: opened,
    date_closed: closedAt,
    cash_start: cashStart,
    cash_end: closedAt === null ? null : cashStart + inShopCurrency(sr.int(0, 40) * 100_000, currency),
    shift_number: s + 1,
    note: null,
  });
}

/** Order i, built on demand. */
function orderRecord({ ctx, places, people, plan }: SalesSources, i: number): SimRecord {
  const { idC } = ctx;
  const { shifts, shiftRegister, shiftEmployee, orders, orderTime, orderClose, orderShift, orderCustomer, orderPayment, orderCanceled, orderTotal, orderTotalExcl, orderReceipt, itemStarts } = plan;
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
  const currency = places.currencyOfShop(shop);
  const receipt = orderReceipt[i] as number;
  // The largest tables spell the common fields (see `commonFields`) in one literal: records built
  // on demand for every page keep one fast shape instead of growing from a small object.
  const record: SimRecord = {
    id: orders.id(i),
    id_c: idC,
    _t: 'orders',
    _v: orders.versions[i],
    _d: 0,
    pgx: `${idC}:${orders.id(i)}`,
    date_created: orders.times[i],
    id_shop: places.shops.id(shop),
    id_cash_register: places.cash_registers.id(r),
    id_shift: shifts.id(s),
    id_employee: people.employees.id(employee),
    id_employee_served: people.employees.id(rng.chance(0.8) ? employee : people.employeeAt(orderTime[i] as number, rng)),
    id_park_location: dineIn ? places.park_locations.id(rng.pick(parks)) : '0',
    currency,
    id_address_invoice: '0',
    id_canceled_order: '0',
    id_customer: customerId(people, orderCustomer[i] as number),
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
    total_tip: orderPayment[i] === 1 && rng.chance(0.2) ? inShopCurrency(rng.int(1, 5) * 10_000, currency) : 0,
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
    invoice_number: receipt,
    order_serial_number: receipt,
    total_people_seated: dineIn ? rng.int(1, 4) : null,
    short_code: String(((receipt - 1) % 999) + 1).padStart(3, '0'),
    geohash: null,
    note: rng.chance(0.03) ? 'Bez cibule, prosím.' : null,
    coupon_code: null,
    coupon_source: null,
    shipping_number: null,
    customer_zip: null,
    summary: items === 1 ? '1 položka' : `${items} položek`,
    tags: null,
    _u_dyn: orders.versions[i],
  };
  return record;
}

/** The fields of order i that paging and reports filter on, without building the record. */
function peekOrder({ places, plan }: SalesSources, i: number, field: string): unknown {
  const { shiftRegister, orderShift, orderPayment, orderTime } = plan;
  switch (field) {
    case 'id_cash_register':
      return places.cash_registers.id(shiftRegister[orderShift[i] as number] as number);
    case 'id_shop':
      return places.shops.id(places.shopOfRegister(shiftRegister[orderShift[i] as number] as number));
    case 'id_payment':
      return PAYMENT_CODES[orderPayment[i] as number];
    case 'date_created':
      return orderTime[i];
    case '_d':
      return 0;
    default:
      return undefined;
  }
}

/** Order item d, built on demand. */
function detailRecord({ ctx, places, people, catalog, plan }: SalesSources, d: number): SimRecord {
  const { idC } = ctx;
  const { shifts, shiftRegister, shiftEmployee, orders, orderClose, orderShift, orderCustomer, orderPayment, orderCanceled, itemStarts, details, orderOfDetail, productOfDetail, quantityOfDetail, priceOfDetail } = plan;
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
  // The largest tables spell the common fields (see `commonFields`) in one literal: records built
  // on demand for every page keep one fast shape instead of growing from a small object.
  const record: SimRecord = {
    id: details.id(d),
    id_c: idC,
    _t: 'order_details',
    _v: details.versions[d],
    _d: 0,
    pgx: `${idC}:${details.id(d)}`,
    date_created: details.times[d],
    id_order: orders.id(i),
    id_shop: places.shops.id(shop),
    id_cash_register: places.cash_registers.id(r),
    id_shift: shifts.id(s),
    id_product: product.id,
    id_category: product.id_category,
    id_employee: people.employees.id(shiftEmployee[s] as number),
    id_warehouse: places.warehouses.id(places.warehouseOfShop(shop)),
    currency: places.currencyOfShop(shop),
    id_customer: customerId(people, orderCustomer[i] as number),
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
}

/** The field of order item d that paging filters on. */
function peekDetail({ orders, orderOfDetail }: SalesPlan, d: number, field: string): unknown {
  if (field === 'id_order') return orders.id(orderOfDetail[d] as number);
  if (field === '_d') return 0;
  return undefined;
}

/** Payment k, built on demand: an order's total split evenly over its payments, the rest on the first. */
function paymentRecord({ ctx, places, people, plan }: SalesSources, k: number): SimRecord {
  const { idC } = ctx;
  const { shifts, shiftRegister, shiftEmployee, orders, orderShift, orderCustomer, orderPayment, orderTotal, payments, firstPayment, orderOfPayment } = plan;
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
    _v: payments.versions[k],
    _d: 0,
    pgx: `${idC}:${payments.id(k)}`,
    date_created: payments.times[k],
    transaction_type: 1,
    payment_type: code,
    id_employee: people.employees.id(shiftEmployee[s] as number),
    id_shop: places.shops.id(places.shopOfRegister(r)),
    id_cash_register: places.cash_registers.id(r),
    id_shift: shifts.id(s),
    id_customer: customerId(people, orderCustomer[i] as number),
    id_order: orders.id(i),
    total_amount: k === first ? total - share * (parts - 1) : share,
    note: null,
    transaction_code: `TX${String(k + 1).padStart(8, '0')}`,
    reference_code: code === 0 ? null : rng.uint32().toString(36).toUpperCase(),
  };
  return record;
}
