import { describe, expect, it } from 'vitest';
import { parseWarehouseStatus, warehouseStatusRowSchema, warehouseStatusSchema } from '../../src/schema/index.js';

const row = {
  id_c: 3,
  id_warehouse: 10,
  id_product: '1152921504606846976',
  id_category: '007',
  wname: 'Main',
  pname: 'Espresso beans',
  cname: null,
  barcode: null,
  ean13: '8590000000000',
  unit: 1,
  qty_cnt: 4,
  qty_sum: 12.5,
  qty_avg: 3.125,
  date_updated: 1_700_000_000_000,
  pp_avg: 120500,
  pp_unit: 121000,
  undocumented: 'kept',
};

describe('warehouse_status report', () => {
  it('parses rows with canonical ids, keeping unknown fields', () => {
    expect(warehouseStatusRowSchema.parse(row)).toEqual({
      ...row,
      id_c: '3',
      id_warehouse: '10',
      id_category: '7',
    });
  });

  it('parses the {data, source} wrapper', () => {
    const parsed = warehouseStatusSchema.parse({ data: [row, { ...row, id_product: 5 }], source: 'cache' });
    expect(parsed.source).toBe('cache');
    expect(parsed.data.map((r) => r.id_product)).toEqual(['1152921504606846976', '5']);
  });

  it('reads figures a loosely typed backend writes as numeric strings as numbers', () => {
    const result = parseWarehouseStatus({ data: [{ ...row, qty_sum: '12.5', unit: '3', pp_avg: '-1200', qty_avg: '' }], source: 'x' });
    expect(result.success && result.data.data[0]).toMatchObject({ qty_sum: 12.5, unit: 3, pp_avg: -1200, qty_avg: null });
    expect(parseWarehouseStatus({ data: [{ ...row, qty_sum: '12abc' }], source: 'x' }).success).toBe(false);
  });

  it('rejects rows without their warehouse or product, or with wrong types', () => {
    expect(warehouseStatusRowSchema.safeParse({ ...row, id_warehouse: undefined }).success).toBe(false);
    expect(warehouseStatusRowSchema.safeParse({ ...row, id_product: 'x' }).success).toBe(false);
    expect(warehouseStatusRowSchema.safeParse({ ...row, qty_sum: '12abc' }).success).toBe(false);
    expect(warehouseStatusRowSchema.safeParse({ ...row, pname: {} }).success).toBe(false);
    expect(warehouseStatusSchema.safeParse({ data: {}, source: 'x' }).success).toBe(false);
    expect(warehouseStatusSchema.safeParse({ data: [] }).success).toBe(false);
  });
});
