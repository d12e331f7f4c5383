import { z } from 'zod';
import { idField, optionalNullableIdField } from '../id-field.js';
import { normalizeIdFields } from '../id-fields.js';

const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/**
 * One row of the warehouse_status report: stock of one product in one warehouse. Read leniently
 * like records: unknown fields kept, ids canonical, wrong types rejected, missing figures allowed.
 */
export const warehouseStatusRowSchema = z
  .looseObject({
    id_c: optionalNullableIdField,
    id_warehouse: idField,
    id_product: idField,
    id_category: optionalNullableIdField,
    wname: maybe(z.string()), // warehouse name
    pname: maybe(z.string()), // product name
    cname: maybe(z.string()), // category name
    barcode: maybe(z.string()),
    ean13: maybe(z.string()),
    unit: maybe(z.number()),
    qty_cnt: maybe(z.number()),
    qty_sum: maybe(z.number()),
    qty_avg: maybe(z.number()),
    date_updated: maybe(z.number()),
    pp_avg: maybe(z.number()), // purchase price figures (x1000)
    pp_unit: maybe(z.number()),
  })
  .overwrite(normalizeIdFields);

/** The warehouse_status response: `{ data: [row...], source }`. */
export const warehouseStatusSchema = z.looseObject({
  data: z.array(warehouseStatusRowSchema),
  source: z.string(),
});

/** One row of the warehouse_status report. */
export type WarehouseStatusRow = z.output<typeof warehouseStatusRowSchema>;
/** The warehouse_status response. */
export type WarehouseStatus = z.output<typeof warehouseStatusSchema>;
