import type { z } from 'zod';
import { bool, int, required, str, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/** Fields of `warehouses` as the spec's table lists them. */
export const warehouseFields = {
  ...dateCreatedField,
  name: required(str()),
  shared: withDefault(bool(), false),
  visible: withDefault(bool(), true),
  warehouse_bitmask: withDefault(int(), 0),
};

/** Both faces of `warehouses` (`_t` = `warehouses`). */
export const warehouseSchemas = defineRecord('warehouses', warehouseFields);

/** A warehouse as read from the server. */
export type Warehouse = z.output<typeof warehouseSchemas.read>;
/** What an app may pass to save a warehouse. */
export type WarehouseInput = z.input<typeof warehouseSchemas.write>;
/** A warehouse after write validation. */
export type WarehouseWrite = z.output<typeof warehouseSchemas.write>;
