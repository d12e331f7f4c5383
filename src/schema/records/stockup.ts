import type { z } from 'zod';
import { id, int, optional, required, requiredRef, str, time } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/**
 * Fields of `stockup` (stock-ups) as the spec's table lists them. The spec types its `id_*` as
 * "integer": they are references all the same, and normalized as ids.
 */
export const stockupFields = {
  ...dateCreatedField,
  id_cash_register: requiredRef(),
  id_employee: requiredRef(),
  id_shop: requiredRef(),
  id_warehouse: requiredRef(),
  stock_history_type: required(int()),
  id_supplier: optional(id()),
  total_product_purchase_unit_price_tax_excl: optional(int()),
  date_stocked: optional(time()),
  note: optional(str()),
  invoice_number: optional(str()),
};

/** Both faces of `stockup` (`_t` = `stockup`). */
export const stockupSchemas = defineRecord('stockup', stockupFields);

/** A stock-up as read from the server. */
export type Stockup = z.output<typeof stockupSchemas.read>;
/** What an app may pass to save a stock-up. */
export type StockupInput = z.input<typeof stockupSchemas.write>;
/** A stock-up after write validation. */
export type StockupWrite = z.output<typeof stockupSchemas.write>;
