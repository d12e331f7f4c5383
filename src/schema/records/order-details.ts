import type { z } from 'zod';
import { id, int, num, optional, required, requiredRef, str, time, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/** Fields of `order_details` (order items) as the spec's table lists them. */
export const orderDetailFields = {
  ...dateCreatedField,
  id_order: requiredRef(),
  id_shop: requiredRef(),
  id_cash_register: requiredRef(),
  id_shift: requiredRef(),
  id_product: requiredRef(),
  id_category: requiredRef(),
  id_employee: requiredRef(),
  id_warehouse: requiredRef(),
  currency: required(str({ length: 3 })),
  id_customer: optional(id()),
  id_order_details_parent: optional(id()),
  id_payment: withDefault(int(), 0),
  total_points: withDefault(int({ min: 0 }), 0), // "number >= 0 (whole number)"
  total_credits: withDefault(num(), 0),
  total_tax_pst: withDefault(int(), 0), // may be negative
  total_tax_luxury: withDefault(int({ min: 0 }), 0),
  total_tax_eco: withDefault(int(), 0),
  product_name: withDefault(str(), 'Unknown'),
  product_name_alternative: withDefault(str(), ''),
  product_unit: withDefault(int({ min: 0 }), 0),
  product_price_original_tax_excl: withDefault(int(), 0),
  product_price_billed_tax_excl: withDefault(int(), 0),
  product_price_billed_tax_incl: withDefault(int(), 0),
  reduction_amount_tax_incl: withDefault(int(), 0),
  reduction_amount_tax_excl: withDefault(int(), 0),
  reduction_percent: withDefault(int({ min: 0 }), 0),
  order_number: withDefault(int({ min: 0 }), 0),
  product_quantity: withDefault(num(), 0),
  tax_pst_rate: withDefault(num(), 1),
  product_bitmask: withDefault(int({ min: 0 }), 0),
  product_item_type: withDefault(int({ min: 0 }), 0),
  date_paid: optional(time()),
  date_canceled: optional(time()),
  date_timing_started: optional(time()),
  date_updated: optional(time()),
  date_item_printed: optional(time()),
  date_collected: optional(time()),
  date_voided: optional(time()),
  // "int? (number)": number or null
  product_purchase_price_tax_excl: optional(num()),
  product_attribute_id: optional(num()),
  total_weight: optional(num()),
  product_barcode: optional(str()),
  product_upc: optional(str()),
  product_ean13: optional(str()),
  tags: optional(str()),
  note: optional(str()),
  reference_code: optional(str()),
};

/** Both faces of `order_details` (`_t` = `order_details`), the items of an order. */
export const orderDetailSchemas = defineRecord('order_details', orderDetailFields);

/** An order item as read from the server. */
export type OrderDetail = z.output<typeof orderDetailSchemas.read>;
/** What an app may pass to save an order item. */
export type OrderDetailInput = z.input<typeof orderDetailSchemas.write>;
/** An order item after write validation. */
export type OrderDetailWrite = z.output<typeof orderDetailSchemas.write>;
