import { describe, expect, it } from 'vitest';
import { splitHydrations } from '../../src/sync/hydrations.js';

describe('splitHydrations', () => {
  it('moves a product price matrix row into its own collection', () => {
    const row = { id: '20', _v: 5, id_product: '10' };
    const { record, children } = splitHydrations({ id: '10', _v: 7, name: 'Tea', __price_matrix_model: row });
    expect(record).toEqual({ id: '10', _v: 7, name: 'Tea' });
    expect(children).toEqual([{ collection: 'product_price_matrix', record: row }]);
  });

  it('moves order items into order_details', () => {
    const items = [{ id: '31', _v: 1 }, { id: '32', _v: 2 }];
    const { record, children } = splitHydrations({ id: '30', _v: 3, __order_details: items });
    expect(record).toEqual({ id: '30', _v: 3 });
    expect(children.map((c) => [c.collection, c.record.id])).toEqual([
      ['order_details', '31'],
      ['order_details', '32'],
    ]);
  });

  it('drops unknown hydrations and null ones without inventing children', () => {
    const { record, children } = splitHydrations({ id: '1', _v: 1, __price_matrix_model: null, __other: { a: 1 } });
    expect(record).toEqual({ id: '1', _v: 1 });
    expect(children).toEqual([]);
  });

  it('returns the very same object when there is nothing to split', () => {
    const input = { id: '1', _v: 1, name: 'x' };
    expect(splitHydrations(input).record).toBe(input);
  });
});
