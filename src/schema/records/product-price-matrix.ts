import type { z } from 'zod';
import { id, int, num, optional, required, requiredRef, str, time, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/** Fields of `product_price_matrix` (prices, matched to products by `id_product`). */
export const priceMatrixFields = {
  ...dateCreatedField,
  id_product: requiredRef(),
  date_starts: required(time()),
  currency: required(str()),
  // plain decimals, not x1000 integers (spec convention 2)
  unit_price_base_tax_excl: optional(num()),
  unit_price_base_tax_incl: optional(num()),
  unit_price_regular_tax_excl: withDefault(int(), 0),
  reduction_amount_a_tax_excl: withDefault(int(), 0),
  unit_price_a_tax_excl: optional(int()),
  unit_price_b_tax_excl: optional(int()),
  unit_price_c_tax_excl: optional(int()),
  points_deduct: withDefault(num(), 0),
  credits_deduct: withDefault(num(), 0),
  hour_bitmask: withDefault(int(), 0),
  price_bitmask: withDefault(int(), 0),
  dow_bitmask: withDefault(int(), 0),
  id_exec_rule: withDefault(id(), '0'),
  id_shop: withDefault(id(), '0'),
  id_warehouse: withDefault(id(), '0'),
  date_expires: optional(time()),
};

/** Both faces of `product_price_matrix` (`_t` = `product_price_matrix`). */
export const priceMatrixSchemas = defineRecord('product_price_matrix', priceMatrixFields);

/** A price-matrix row as read from the server (also the `__price_matrix_model` of a product). */
export type PriceMatrixRow = z.output<typeof priceMatrixSchemas.read>;
/** What an app may pass to save a price-matrix row. */
export type PriceMatrixRowInput = z.input<typeof priceMatrixSchemas.write>;
/** A price-matrix row after write validation. */
export type PriceMatrixRowWrite = z.output<typeof priceMatrixSchemas.write>;
