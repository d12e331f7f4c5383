import { describe, expect, it } from 'vitest';
import { parseRecord } from '../../../src/schema/index.js';
import { rescueParent, splitHydrations } from '../../../src/sync/pull/hydrations.js';

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

  it('keeps fields with one leading underscore or a later "__", and never looks at inherited keys', () => {
    const input = Object.assign(Object.create({ __inherited: [{ id: '9', _v: 1 }] }) as Record<string, unknown>, { id: '1', _v: 1, _d: 0, _x__y: 2, a__b: 3 });
    const { record, children } = splitHydrations(input as { id: string; _v: number });
    expect(record).toBe(input);
    expect(children).toEqual([]);
  });

  it('returns the very same object when there is nothing to split', () => {
    const input = { id: '1', _v: 1, name: 'x' };
    expect(splitHydrations(input).record).toBe(input);
  });
});

describe('rescueParent', () => {
  const price = (id: number, extra: Record<string, unknown> = {}) => ({ id, _v: 5, id_product: 10, date_starts: 1, currency: 'CZK', ...extra });
  const refusal = (collection: 'products' | 'orders', raw: Record<string, unknown>) => {
    const parsed = parseRecord(collection, raw);
    expect(parsed.ok).toBe(false);
    return parsed.ok ? [] : parsed.issues;
  };

  it('reads a product refused only for its price row again without it, and hands the row back as refused', () => {
    const raw = { id: 10, _v: 7, name: 'Tea', date_updated: 1, __price_matrix_model: price(20, { currency: 5 }) };
    const rescue = rescueParent('products', raw, refusal('products', raw));
    expect(rescue?.record).toMatchObject({ id: '10', _v: 7, name: 'Tea', __price_matrix_model: null });
    expect(rescue?.refused).toEqual([{ collection: 'product_price_matrix', raw: raw.__price_matrix_model, issues: [expect.objectContaining({ path: ['currency'] })] }]);
  });

  it('keeps the order items that pass, parsed, and refuses only the bad one', () => {
    const item = (id: number, v: unknown) => ({ id, _v: v, id_order: 30, id_shop: 1, id_cash_register: 1, id_shift: 1, id_product: 1, id_category: 1, id_employee: 1, id_warehouse: 1, currency: 'CZK' });
    const raw = { id: 30, _v: 3, id_shop: 1, id_cash_register: 1, id_shift: 1, id_employee: 1, id_employee_served: 1, id_park_location: 1, currency: 'CZK', __order_details: [item(31, 1), item(32, -4)] };
    const rescue = rescueParent('orders', raw, refusal('orders', raw));
    expect((rescue?.record.__order_details as { id: string }[]).map((d) => d.id)).toEqual(['31']);
    expect(rescue?.refused.map((r) => [r.collection, (r.raw as { id: number }).id])).toEqual([['order_details', 32]]);
    // The split then applies the parent and the good item.
    expect(splitHydrations(rescue!.record).children.map((c) => [c.collection, c.record.id])).toEqual([['order_details', '31']]);
  });

  it('leaves a record refused for itself (an issue outside the hydration) quarantined whole', () => {
    const raw = { id: 10, _v: 'bad', name: 'Tea', date_updated: 1, __price_matrix_model: price(20, { currency: 5 }) };
    expect(rescueParent('products', raw, refusal('products', raw))).toBeUndefined();
  });

  it('rescues nothing in a collection without hydrations', () => {
    expect(rescueParent('customers', { id: 1, _v: 1, __price_matrix_model: {} }, [{ path: ['__price_matrix_model'], message: 'x' }])).toBeUndefined();
  });
});
