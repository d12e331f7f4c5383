import type { z } from 'zod';
import { id, int, num, optional, required, requiredRef, str, time, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/** Fields of `stock_history` as the spec's table lists them. */
export const stockHistoryFields = {
  ...dateCreatedField,
  id_employee: requiredRef(),
  id_shop: requiredRef(),
  id_warehouse: requiredRef(),
  id_record: requiredRef(),
  id_cash_register: requiredRef(),
  id_stockup: optional(id()),
  id_supplier: optional(id()),
  id_order: optional(id()),
  stock_type: required(int()),
  stock_history_type: required(int()),
  quanity: withDefault(num(), 0), // spelled so in the interface
  date_stocked: optional(time()),
  note: optional(str()),
  supplier_sku: optional(str()),
  product_purchase_unit_price_tax_excl: optional(int()),
};

/** Both faces of `stock_history` (`_t` = `stock_history`). */
export const stockHistorySchemas = defineRecord('stock_history', stockHistoryFields);

/** A stock movement as read from the server. */
export type StockHistoryRow = z.output<typeof stockHistorySchemas.read>;
/** What an app may pass to save a stock movement. */
export type StockHistoryRowInput = z.input<typeof stockHistorySchemas.write>;
/** A stock movement after write validation. */
export type StockHistoryRowWrite = z.output<typeof stockHistorySchemas.write>;
