import type { z } from 'zod';
import { bool, id, int, nullable, num, optional, required, str, time, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';
import { priceMatrixSchemas } from './product-price-matrix.js';

const zeroInt = () => withDefault(int(), 0);

/** Fields of `products` as the spec's table lists them. */
export const productFields = {
  ...dateCreatedField,
  name: required(str()),
  date_updated: required(time()), // required with no default, unlike customers
  quantity_multiple: withDefault(num(), 1),
  quantity_minimal: withDefault(num(), 1),
  additional_shipping_cost: withDefault(num(), 0),
  inventory_management: withDefault(bool(), false),
  visible: withDefault(bool(), true), // false: the product is deleted
  color: zeroInt(),
  item_type: zeroInt(),
  warranty_length: zeroInt(),
  condition_type: zeroInt(),
  icon_code: zeroInt(),
  warranty_type: zeroInt(),
  unit: zeroInt(),
  sale_group_type: zeroInt(),
  attributes_bitmask: zeroInt(),
  inventory_type: zeroInt(),
  id_category: withDefault(id(), '0'),
  id_exec_rule: withDefault(id(), '0'),
  // The spec types node_sort "id" in this table but "integer" in categories: a sort key, kept a number.
  node_sort: zeroInt(),
  id_shop: withDefault(id(), '0'), // 0: not restricted to a shop
  id_tax_rules_group: withDefault(nullable(id()), '0'),
  id_global_product_code: optional(id()),
  tax_luxury: withDefault(num(), 1),
  tax_eco: withDefault(num(), 1),
  tax_pst_rate: withDefault(num(), 1),
  accounting_group: withDefault(int(), 600000),
  image_dimension: optional(int()),
  height: optional(num()),
  weight: optional(num()),
  depth: optional(num()),
  width: optional(num()),
  notes_quick: optional(str()),
  ean13: optional(str()),
  name_alternative: optional(str()),
  sku: optional(str()),
  barcode: optional(str()),
  image_url: optional(str()),
  upc: optional(str()),
  details_url: optional(str()),
  tags: optional(str()),
  description_short: optional(str()),
  internal_extra: optional(str()),
  deleted: optional(int()), // a create payload may carry it
};

/**
 * Both faces of `products` (`_t` = `products`). The read face also parses the
 * `__price_matrix_model` hydration of product lists with the price-matrix read face.
 */
export const productSchemas = defineRecord('products', productFields, {
  __price_matrix_model: priceMatrixSchemas.read.nullable().optional(),
});

/** A product as read from the server (with its `__price_matrix_model` in lists). */
export type Product = z.output<typeof productSchemas.read>;
/** What an app may pass to save a product. */
export type ProductInput = z.input<typeof productSchemas.write>;
/** A product after write validation. */
export type ProductWrite = z.output<typeof productSchemas.write>;
