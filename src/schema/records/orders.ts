import { z } from 'zod';
import { bool, id, int, num, nullable, optional, required, requiredRef, str, time, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';
import { orderDetailSchemas } from './order-details.js';

/** Money totals of an order: integers, the amount x 1000 (spec convention 2), default 0. */
const moneyTotal = () => withDefault(int(), 0);

/** Fields of `orders` as the spec lists them. */
export const orderFields = {
  ...dateCreatedField,
  id_shop: requiredRef(),
  id_cash_register: requiredRef(),
  id_shift: requiredRef(),
  id_employee: requiredRef(),
  id_employee_served: requiredRef(),
  id_park_location: requiredRef(),
  currency: required(nullable(str())), // the key must be present; null allowed
  id_address_invoice: optional(id()),
  id_canceled_order: optional(id()),
  id_customer: optional(id()),
  id_tax_report: optional(id()),
  id_address_delivery: optional(id()),
  id_shipping: optional(id()),
  id_superseded: optional(id()),
  total_points: withDefault(num(), 0),
  total_credits: withDefault(num(), 0),
  total_profit_tax_incl: moneyTotal(),
  total_profit_tax_excl: moneyTotal(),
  total_tax_gst: moneyTotal(),
  total_shipping_tax_incl: moneyTotal(),
  total_shipping_tax_excl: moneyTotal(),
  total_tax_service: moneyTotal(),
  total_discounts_tax_incl: moneyTotal(),
  total_discounts_tax_excl: moneyTotal(),
  total_tax_pst: moneyTotal(),
  total_tax_luxury: moneyTotal(),
  total_tax_eco: moneyTotal(),
  total_paid_real: moneyTotal(),
  total_paid_tax_incl: moneyTotal(),
  total_paid_tax_excl: moneyTotal(),
  total_tip: moneyTotal(),
  total_wrapping_tax_incl: moneyTotal(),
  total_wrapping_tax_excl: moneyTotal(),
  total_products: moneyTotal(),
  id_payment: withDefault(int(), 0), // payment form code: 221 cash, 222 card, 238 terminal
  dine_in: withDefault(bool(), false),
  conversion_rate: withDefault(num(), 1),
  date_closed: optional(time()),
  date_paid: optional(time()),
  date_canceled: optional(time()), // non-null: canceled or reversed
  date_fiscalized: optional(time()),
  date_tax_reported: optional(time()),
  date_loc_acq: optional(time()),
  date_collected: optional(time()),
  date_due_pay: optional(time()),
  date_emailed: optional(time()),
  // "int?": number or null
  invoice_number: optional(num()),
  order_serial_number: optional(num()),
  total_people_seated: optional(num()),
  short_code: optional(str()),
  geohash: optional(str()),
  note: optional(str()),
  coupon_code: optional(str()),
  coupon_source: optional(str()),
  shipping_number: optional(str()),
  customer_zip: optional(str()),
  summary: optional(str()),
  tags: optional(str()),
};

/**
 * Both faces of `orders` (`_t` = `orders`). The read face also parses the `__order_details`
 * hydration of a single order fetched with its items, item by item with the order_details read face.
 */
export const orderSchemas = defineRecord('orders', orderFields, {
  __order_details: z.array(orderDetailSchemas.read).nullable().optional(),
});

/** An order as read from the server (with `__order_details` when fetched with its items). */
export type Order = z.output<typeof orderSchemas.read>;
/** What an app may pass to save an order. */
export type OrderInput = z.input<typeof orderSchemas.write>;
/** An order after write validation. */
export type OrderWrite = z.output<typeof orderSchemas.write>;
