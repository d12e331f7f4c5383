import { z } from 'zod';
import { lenient } from '../field.js';
import { idValue } from '../id-field.js';
import { normalizeIdFields } from '../id-fields.js';
import { WAREHOUSE_STATUS_RULES } from '../loose-rules.js';
import { readLoosely } from '../loose-values.js';

const text = lenient(z.string());
const figure = lenient(z.number());

/**
 * One row of the warehouse_status report: stock of one product in one warehouse. Read leniently
 * like records: unknown fields kept, ids canonical, wrong types rejected, missing figures allowed.
 * Id fields are checked here and canonicalized, described or not, by the one `normalizeIdFields` pass.
 */
export const warehouseStatusRowSchema = z
  .looseObject({
    id_c: lenient(idValue),
    id_warehouse: idValue,
    id_product: idValue,
    id_category: lenient(idValue),
    wname: text, // warehouse name
    pname: text, // product name
    cname: text, // category name
    barcode: text,
    ean13: text,
    unit: figure,
    qty_cnt: figure,
    qty_sum: figure,
    qty_avg: figure,
    date_updated: figure,
    pp_avg: figure, // purchase price figures (x1000)
    pp_unit: figure,
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

/**
 * The warehouse_status response read with {@link warehouseStatusSchema}; a response a loosely typed
 * backend wrote (figures as numeric strings) is read again with its figures made numbers where that
 * is lossless (see `loose-values.ts`).
 */
export function parseWarehouseStatus(value: unknown): ReturnType<typeof warehouseStatusSchema.safeParse> {
  const result = warehouseStatusSchema.safeParse(value);
  if (result.success || typeof value !== 'object' || value === null) return result;
  const loose = readLoosely(value, {}, { data: { rules: () => WAREHOUSE_STATUS_RULES, many: true } });
  return loose === value ? result : warehouseStatusSchema.safeParse(loose);
}
