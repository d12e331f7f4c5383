import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { isIdempotentBody, prepareSaveBody } from '../../src/client/save-body.js';

describe('prepareSaveBody', () => {
  it('fills a missing _t on a copy and keeps a matching one', () => {
    const record = { name: 'Espresso' };
    expect(prepareSaveBody('products', record, 'save products')).toEqual({ name: 'Espresso', _t: 'products' });
    expect(record).toEqual({ name: 'Espresso' });
    expect(prepareSaveBody('products', [{ _t: 'products', id: '7' }], 'save products')).toEqual([{ _t: 'products', id: '7' }]);
  });

  it('refuses a record of another table, naming its index', () => {
    const error = (() => {
      try {
        prepareSaveBody('products', [{ _t: 'products' }, { _t: 'customers' }], 'save products');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: [1, '_t'], message: 'must be "products", got "customers"' }]);
  });

  it('refuses an empty batch and bodies that are not records', () => {
    expect(() => prepareSaveBody('orders', [], 'save orders')).toThrow(/empty batch/);
    expect(() => prepareSaveBody('orders', 'x', 'save orders')).toThrow(/expected a record object, got string/);
    expect(() => prepareSaveBody('orders', [{}, null], 'save orders')).toThrow(/1: expected a record object, got null/);
  });
});

describe('isIdempotentBody', () => {
  it('is true only when every record carries its own non-zero id', () => {
    expect(isIdempotentBody({ id: '123456789012345678901' })).toBe(true);
    expect(isIdempotentBody([{ id: 5 }, { id: 10n }])).toBe(true);
    expect(isIdempotentBody({ id: 0 })).toBe(false);
    expect(isIdempotentBody({ id: '0' })).toBe(false);
    expect(isIdempotentBody({ name: 'no id' })).toBe(false);
    expect(isIdempotentBody([{ id: 5 }, { name: 'new' }])).toBe(false);
  });
});
