/**
 * A sale as a register closes it: one order with its items, a payment (transaction) and a stock
 * movement per item out of the shop's warehouse, all in the register's open shift, each record
 * written (validated, stamped) in that order. The shop sells what its kind sells (a café coffee
 * and cakes), within what such a shop takes for one receipt; prices come from each product's
 * current price row, in the shop's currency. What the warehouse lacks is delivered first (see
 * `restock.ts`), and the receipt takes the register's next number.
 */
import { ValidationError } from '../../errors/index.js';
import type { Id } from '../../ids/id.js';
import type { SimRecord } from '../record.js';
import type { ShopSales } from '../tenant/generate-tenant.js';
import { PAYMENT_CODES } from '../tenant/payment-codes.js';
import { CZK_PER_EUR, inShopCurrency, saleQuantity } from '../tenant/shop-profiles.js';
import { restockFor, type Restock } from './restock.js';
import { writeStockRow, type StockLine, type StockPlace } from './stock-writes.js';
import type { StoreAccess } from './store-access.js';

/** What to sell; everything is chosen at random (seeded) when left out. */
export interface SellOptions {
  /** Register that sells; a random visible one by default. */
  idCashRegister?: Id;
  /** Customer; by default 40 % of sales have a random one, the rest none. */
  idCustomer?: Id;
  /** Number of items (1..50); 1 to 4 by default. */
  items?: number;
  /** Payment form: 221 cash, 222 card, 238 terminal provider. */
  idPayment?: number;
}

/** The records a sale wrote. */
export interface Sale {
  order: SimRecord;
  details: SimRecord[];
  transaction: SimRecord;
  /** The stock movements of the sale, one per item (negative quantities). */
  stockHistory: SimRecord[];
  /** The delivery booked first because the warehouse lacked something, or null. */
  restock: Restock | null;
}

/** Performs a sale on the store. */
export function sell(store: StoreAccess, opts: SellOptions = {}): Sale {
  const till = openTill(store, opts);
  const now = store.now();
  const lines = draftLines(store, till, now);
  const restock = restockFor(
    store,
    lines.map((l) => ({ product: l.product, quantity: l.quantity, unitPrice: l.purchase })),
    stockPlace(till),
  );
  // Each register numbers its own receipts.
  const serial = store.nextReceiptNumber(till.registerId);
  const order = writeOrder(store, till, lines, serial, now);
  const details = lines.map((l, j) => writeDetail(store, till, order, l, j, now));
  const transaction = writeTransaction(store, till, order, lines);
  const stockHistory = lines.map((l) => writeSaleMovement(store, till, order, l, now));
  return { order, details, transaction, stockHistory, restock };
}

/** Who sells what, where, to whom and how it is paid: the register, its shop and open shift, the sale's customer and payment. */
interface Till {
  registerId: Id;
  shopId: Id;
  currency: string;
  shift: SimRecord;
  employeeId: Id;
  warehouseId: Id;
  customerId: Id;
  idPayment: number;
  count: number;
  sells: ShopSales | undefined;
  /** The references every record of the sale carries. */
  refs: { id_shop: Id; id_cash_register: Id; id_shift: unknown; id_employee: Id };
}

/** Picks (or takes from `opts`) the register, customer, payment and number of items, and opens the register's shift if needed. */
function openTill(store: StoreAccess, opts: SellOptions): Till {
  const rng = store.rng;
  const register = opts.idCashRegister !== undefined ? store.require('cash_registers', opts.idCashRegister) : pickLive(store, 'cash_registers');
  const registerId = register.id as Id;
  const shopId = String(register.id_shop ?? '0');
  const shop = store.collection('shops').get(shopId);
  const currency = typeof shop?.currency === 'string' && shop.currency.length === 3 ? shop.currency : 'CZK';
  const shift = openShift(store, registerId, shopId);
  const employeeId = String(shift.id_employee ?? pickLive(store, 'employees').id);
  const warehouseId = store.warehouseOfShop(shopId) ?? store.collection('warehouses').idAt(0);
  const customerId = opts.idCustomer ?? (rng.chance(0.4) ? String(pickLive(store, 'customers', true)?.id ?? '0') : '0');
  const idPayment = opts.idPayment ?? (rng.chance(0.4) ? PAYMENT_CODES[0] : rng.chance(0.9) ? PAYMENT_CODES[1] : PAYMENT_CODES[2]);
  const count = opts.items ?? rng.int(1, 4);
  if (!Number.isInteger(count) || count < 1 || count > 50) {
    throw new ValidationError(`sell: items must be a whole number 1..50, got ${count}`, { issues: [{ path: ['items'], message: 'must be a whole number 1..50' }] });
  }
  const refs = { id_shop: shopId, id_cash_register: registerId, id_shift: shift.id, id_employee: employeeId };
  return { registerId, shopId, currency, shift, employeeId, warehouseId, customerId, idPayment, count, sells: store.shopSales(shopId), refs };
}

/** The sale's lines, kept within what such a shop takes for one order. */
function draftLines(store: StoreAccess, { sells, currency, count }: Till, now: number): Line[] {
  const cap = sells?.maxOrderTotal ?? Number.POSITIVE_INFINITY;
  let czkTotal = 0;
  return Array.from({ length: count }, () => {
    let line = draftLine(store, sells, currency, now, false);
    // A line that would take the order past what such a shop takes: one piece of something else.
    for (let attempt = 0; attempt < 8 && czkTotal + line.czk > cap; attempt++) line = draftLine(store, sells, currency, now, true);
    czkTotal += line.czk;
    return line;
  });
}

/** Writes the order, closed and paid now, with receipt number `serial`. */
function writeOrder(store: StoreAccess, { refs, employeeId, customerId, currency, idPayment, count }: Till, lines: readonly Line[], serial: number, now: number): SimRecord {
  const total = lines.reduce((sum, l) => sum + l.line, 0);
  const excl = lines.reduce((sum, l) => sum + l.excl, 0);
  return store.write('orders', {
    _t: 'orders',
    ...refs,
    invoice_number: serial,
    order_serial_number: serial,
    short_code: String(((serial - 1) % 999) + 1).padStart(3, '0'),
    id_employee_served: employeeId,
    id_park_location: '0',
    id_customer: customerId,
    currency,
    total_paid_real: total,
    total_paid_tax_incl: total,
    total_paid_tax_excl: excl,
    total_products: excl,
    total_tax_pst: total - excl,
    id_payment: idPayment,
    date_closed: now,
    date_paid: now,
    summary: count === 1 ? '1 položka' : `${count} položek`,
  });
}

/** Writes line l (the j-th) of the order as an order item. */
function writeDetail(store: StoreAccess, { refs, warehouseId, customerId, currency, idPayment }: Till, order: SimRecord, l: Line, j: number, now: number): SimRecord {
  return store.write('order_details', {
    _t: 'order_details',
    id_order: order.id,
    ...refs,
    id_product: l.product.id,
    id_category: l.product.id_category ?? '0',
    id_warehouse: warehouseId,
    id_customer: customerId,
    currency,
    id_payment: idPayment,
    product_name: typeof l.product.name === 'string' ? l.product.name : 'Unknown',
    product_price_original_tax_excl: Math.round(l.price / l.tax),
    product_price_billed_tax_excl: Math.round(l.price / l.tax),
    product_price_billed_tax_incl: l.price,
    total_tax_pst: l.line - l.excl,
    product_quantity: l.quantity,
    tax_pst_rate: l.tax,
    order_number: j + 1,
    date_paid: now,
    product_barcode: l.product.barcode ?? null,
    product_ean13: l.product.ean13 ?? null,
  });
}

/** Writes the payment of the whole order. */
function writeTransaction(store: StoreAccess, { refs, customerId, idPayment }: Till, order: SimRecord, lines: readonly Line[]): SimRecord {
  const total = lines.reduce((sum, l) => sum + l.line, 0);
  const paymentType = PAYMENT_CODES.indexOf(idPayment as (typeof PAYMENT_CODES)[number]);
  return store.write('transactions', {
    _t: 'transactions',
    transaction_type: 1,
    payment_type: paymentType >= 0 ? paymentType : 0,
    ...refs,
    id_customer: customerId,
    id_order: order.id,
    total_amount: total,
  });
}

/** Writes the stock movement of line l out of the shop's warehouse. */
function writeSaleMovement(store: StoreAccess, till: Till, order: SimRecord, l: Line, now: number): SimRecord {
  const line: StockLine = { productId: l.product.id as Id, quantity: -l.quantity, unitPrice: l.purchase };
  return writeStockRow(store, stockPlace(till), line, { type: 'sale', idOrder: order.id as Id }, now);
}

/** Where the till's stock moves. */
function stockPlace({ warehouseId, shopId, registerId, employeeId }: Till): StockPlace {
  return { warehouseId, shopId, registerId, employeeId };
}

/** One order line: product, price (the shop's currency, x1000), quantity and amounts. */
interface Line {
  product: SimRecord;
  price: number;
  tax: number;
  quantity: number;
  line: number;
  excl: number;
  /** The line in CZK x1000, to compare with what the shop takes for one order. */
  czk: number;
  /** Purchase price per unit, tax excl., CZK x1000. */
  purchase: number;
}

/** Drafts a line: a product the shop sells, priced now; `single` takes one piece (a quarter kilo). */
function draftLine(store: StoreAccess, sells: ShopSales | undefined, currency: string, now: number, single: boolean): Line {
  const rng = store.rng;
  const product = pickSold(store, sells);
  const row = store.prices.currentRow(product.id as Id, now);
  const listed = row && typeof row.unit_price_base_tax_incl === 'number' ? Math.round(row.unit_price_base_tax_incl * 1000) : 50_000;
  const listedIn = typeof row?.currency === 'string' ? row.currency : 'CZK';
  const czkPrice = listedIn === 'EUR' ? listed * CZK_PER_EUR : listed;
  const price = listedIn === currency ? listed : inShopCurrency(czkPrice, currency);
  const tax = typeof product.tax_pst_rate === 'number' && product.tax_pst_rate > 0 ? product.tax_pst_rate : 1.21;
  const byWeight = product.unit === 1;
  const quantity = single ? (byWeight ? 0.25 : 1) : saleQuantity(byWeight, product.item_type === 1, rng);
  const line = Math.round(price * quantity);
  return { product, price, tax, quantity, line, excl: Math.round(line / tax), czk: Math.round(czkPrice * quantity), purchase: Math.round((czkPrice * 0.45) / tax) };
}

/** A live product the shop sells, the long-standing ones more often; any live product for a shop the generator did not make. */
function pickSold(store: StoreAccess, sells: ShopSales | undefined): SimRecord {
  const list = sells?.products ?? [];
  const products = store.collection('products');
  for (let attempt = 0; attempt < 16 && list.length > 0; attempt++) {
    const u = store.rng.next();
    const record = products.get(list[Math.floor(list.length * u * u)] as Id);
    if (record && record._d === 0 && record.visible !== false) return record;
  }
  return pickLive(store, 'products');
}

/** A random record that is not deleted (and, where the field exists, visible). */
function pickLive(store: StoreAccess, table: 'cash_registers' | 'employees' | 'products', optional?: false): SimRecord;
function pickLive(store: StoreAccess, table: 'customers', optional: true): SimRecord | undefined;
function pickLive(store: StoreAccess, table: 'cash_registers' | 'employees' | 'products' | 'customers', optional = false): SimRecord | undefined {
  const records = store.collection(table);
  for (let attempt = 0; attempt < 64 && records.count > 0; attempt++) {
    const record = records.recordAt(store.rng.int(0, records.count - 1));
    if (record._d === 0 && record.visible !== false) return record;
  }
  if (optional) return undefined;
  throw new ValidationError(`sell: no live ${table} record to use`, { issues: [{ path: [table], message: 'no record that is neither deleted nor hidden' }] });
}

/** The register's open shift, opening one (written like any record) when it has none. */
function openShift(store: StoreAccess, registerId: Id, shopId: Id): SimRecord {
  const known = store.openShiftOf(registerId);
  const shift = known === undefined ? undefined : store.collection('shifts').get(known);
  if (shift && shift._d === 0 && (shift.date_closed === null || shift.date_closed === undefined)) return shift;
  const opened = store.write('shifts', {
    _t: 'shifts',
    id_cash_register: registerId,
    id_shop: shopId,
    id_employee: pickLive(store, 'employees').id,
    date_opened: store.now(),
    date_closed: null,
    cash_start: 5_000_000,
    cash_end: null,
    note: null,
  });
  store.setOpenShift(registerId, opened.id as Id);
  return opened;
}
