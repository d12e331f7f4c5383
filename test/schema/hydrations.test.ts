import { describe, expect, it } from 'vitest';
import { parseRecord, validateWrite, type CategoryNode } from '../../src/schema/index.js';

const BIG = '1152921504606846976';

describe('products read face', () => {
  it('parses __price_matrix_model with the price-matrix read face, ids canonical', () => {
    const result = parseRecord('products', {
      id: BIG,
      _v: 10,
      name: 'Espresso',
      __price_matrix_model: { id: 77, _v: 9, id_product: `00${BIG}`, currency: 'CZK', unit_price_base_tax_incl: 49.5, odd: 1 },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record.__price_matrix_model).toEqual({
      id: '77',
      _v: 9,
      _d: 0,
      _t: 'product_price_matrix',
      id_product: BIG,
      currency: 'CZK',
      unit_price_base_tax_incl: 49.5,
      odd: 1,
    });
  });

  it('reads the loosely typed values of a product and its model as the documented types', () => {
    const result = parseRecord('products', {
      id: '12',
      _v: '1700000000000',
      name: 'Espresso',
      node_sort: '0',
      visible: 1,
      inventory_management: '0',
      tax_pst_rate: '1.21',
      height: '',
      __price_matrix_model: { id: '77', _v: '9', id_product: '12', currency: 'CZK', unit_price_regular_tax_excl: '41300', unit_price_base_tax_incl: '49.5', unit_price_a_tax_excl: '' },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).toMatchObject({ _v: 1_700_000_000_000, node_sort: 0, visible: true, inventory_management: false, tax_pst_rate: 1.21, height: null });
    expect(result.record.__price_matrix_model).toMatchObject({ _v: 9, unit_price_regular_tax_excl: 41300, unit_price_base_tax_incl: 49.5, unit_price_a_tax_excl: null });
  });

  it('accepts a null model, and rejects a model whose id is bad, naming the path', () => {
    expect(parseRecord('products', { id: 1, _v: 1, __price_matrix_model: null }).ok).toBe(true);
    const bad = parseRecord('products', { id: 1, _v: 1, __price_matrix_model: { id: 'x', _v: 1 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]?.path).toEqual(['__price_matrix_model', 'id']);
  });

  it('drops the hydration when the product is written', () => {
    const out = validateWrite('products', {
      name: 'Espresso',
      date_updated: 1,
      __price_matrix_model: { id: 1, _v: 1 },
    });
    expect(out).not.toHaveProperty('__price_matrix_model');
  });
});

describe('orders read face', () => {
  it('parses every __order_details item with the order_details read face', () => {
    const result = parseRecord('orders', {
      id: 700,
      _v: 3,
      currency: 'CZK',
      __order_details: [
        { id: 1, _v: 3, id_order: 700, product_name: 'Tea', extra: true },
        { id: '0002', _v: 3, id_order: '700', id_customer: null },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record.__order_details).toEqual([
      { id: '1', _v: 3, _d: 0, _t: 'order_details', id_order: '700', product_name: 'Tea', extra: true },
      { id: '2', _v: 3, _d: 0, _t: 'order_details', id_order: '700', id_customer: null },
    ]);
  });

  it('rejects an order whose item cannot be used, with the item index in the path', () => {
    const result = parseRecord('orders', { id: 1, _v: 1, __order_details: [{ id: 1, _v: 1 }, { id: 2, _v: -4 }] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toEqual([{ path: ['__order_details', 1, '_v'], message: expect.stringMatching(/>= 0/) }]);
  });
});

describe('categories', () => {
  const tree = {
    id: 1,
    _v: 5,
    name: 'Drinks',
    id_category_parent: 0,
    children: [
      {
        id: 2,
        _v: 5,
        name: 'Hot',
        id_category_parent: 1,
        margin: 0.2,
        tags: null,
        children: [{ id: '0003', _v: 5, name: 'Coffee', id_category_parent: '2', id_unknown: 9, children: [] }],
      },
    ],
  };

  it('parses the recursive children tree with ids canonical at every depth', () => {
    const result = parseRecord('categories', tree);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const root: CategoryNode = result.record;
    const hot = root.children?.[0];
    const coffee = hot?.children?.[0];
    expect(root.id).toBe('1');
    expect(hot).toMatchObject({ id: '2', id_category_parent: '1', margin: 0.2, tags: null, _t: 'categories', _d: 0 });
    expect(coffee).toMatchObject({ id: '3', id_category_parent: '2', id_unknown: '9', children: [] });
  });

  it('reads loosely typed values at every depth of the tree', () => {
    const loose = structuredClone(tree) as unknown as Record<string, unknown> & { children: Record<string, unknown>[] };
    loose['_v'] = '5';
    loose.children[0]!['visible'] = 0;
    loose.children[0]!['node_sort'] = '3';
    const result = parseRecord('categories', loose);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const node = result.record as unknown as CategoryNode & { children: CategoryNode[] };
    expect(node._v).toBe(5);
    expect(node.children[0]).toMatchObject({ visible: false, node_sort: 3 });
  });

  it('reports a bad node deep in the tree by its path', () => {
    const bad = structuredClone(tree);
    (bad.children[0]!.children[0] as Record<string, unknown>)['name'] = 42;
    const result = parseRecord('categories', bad);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.path).toEqual(['children', 0, 'children', 0, 'name']);
  });

  it('writes a tree with defaults filled at every depth', () => {
    const out = validateWrite('categories', { name: 'Root', children: [{ name: 'Leaf', pgx: 'x' }] }) as Record<string, unknown>;
    expect(out).toMatchObject({ id_category_parent: '0', id_category_sort_after: '0', _t: 'categories' });
    expect((out['children'] as unknown[])[0]).toEqual({
      name: 'Leaf',
      _d: 0,
      _t: 'categories',
      id_category_parent: '0',
      id_category_sort_after: '0',
    });
  });
});
