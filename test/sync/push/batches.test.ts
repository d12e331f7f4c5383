import { describe, expect, it } from 'vitest';
import { jsonBytes, planBatches, utf8Length } from '../../../src/sync/push/batches.js';
import { pushOrder, PUSH_ORDER } from '../../../src/sync/records/relations.js';
import { readRejections, rejectionReason } from '../../../src/sync/push/rejections.js';
import { HttpError } from '../../../src/errors/index.js';
import { COLLECTIONS } from '../../../src/schema/collections.js';

describe('planBatches', () => {
  const sizes = (n: number, size: number) => Array.from({ length: n }, () => size);

  it('cuts by count, keeping the order', () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    const batches = planBatches(items, { maxRecords: 100, maxBytes: 1e9 }, () => 10);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(items);
  });

  it('cuts by bytes of the JSON array body: brackets and commas counted', () => {
    // 3 items of 10 bytes: "[" + 10 + "," + 10 + "," + 10 + "]" = 34 bytes.
    expect(planBatches(sizes(3, 10), { maxRecords: 100, maxBytes: 34 }, (s) => s).map((b) => b.length)).toEqual([3]);
    expect(planBatches(sizes(3, 10), { maxRecords: 100, maxBytes: 33 }, (s) => s).map((b) => b.length)).toEqual([2, 1]);
  });

  it('sends an item larger than the byte limit alone', () => {
    expect(planBatches([5, 500, 5], { maxRecords: 100, maxBytes: 100 }, (s) => s).map((b) => b.length)).toEqual([1, 1, 1]);
  });

  it('makes no batch from nothing', () => {
    expect(planBatches([], { maxRecords: 10, maxBytes: 100 }, () => 1)).toEqual([]);
  });
});

describe('utf8Length and jsonBytes', () => {
  it.each(['', 'abc', 'é', '€', '😀', 'a😀é€', '\udc00'])('counts %j like TextEncoder', (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });

  it('measures the JSON text of a record', () => {
    const record = { id: '123', name: 'Čaj' };
    expect(jsonBytes(record)).toBe(new TextEncoder().encode(JSON.stringify(record)).length);
  });
});

describe('pushOrder', () => {
  it('covers every collection once', () => {
    expect([...PUSH_ORDER].sort()).toEqual([...COLLECTIONS].sort());
  });

  it('puts parents before children', () => {
    const at = (c: string) => PUSH_ORDER.indexOf(c as never);
    for (const parent of ['customers', 'products', 'warehouses', 'employees']) expect(at(parent)).toBeLessThan(at('orders'));
    expect(at('orders')).toBeLessThan(at('order_details'));
    expect(at('orders')).toBeLessThan(at('transactions'));
    expect(at('stockup')).toBeLessThan(at('stock_history'));
    expect(at('products')).toBeLessThan(at('product_price_matrix'));
  });

  it('keeps the push order whatever order the collections are asked in', () => {
    expect(pushOrder(['order_details', 'customers', 'orders', 'customers'])).toEqual(['customers', 'orders', 'order_details']);
  });
});

describe('readRejections', () => {
  it('reads the simulator body: record indexes and their issues', () => {
    const body = { error: 'validation', records: [{ index: 2, issues: [{ path: ['email'], message: 'invalid e-mail' }] }] };
    expect(readRejections(body, 3)).toEqual(new Map([[2, 'email: invalid e-mail']]));
  });

  it('ignores indexes outside the batch, and says so when nothing is left', () => {
    expect(readRejections({ records: [{ index: 5, message: 'x' }] }, 3)).toBeUndefined();
    expect(readRejections('bad request', 3)).toBeUndefined();
    expect(readRejections({ error: 'bad' }, 3)).toBeUndefined();
  });

  it('reads other shapes: a message or error per record', () => {
    expect(readRejections({ errors: [{ index: 0, message: 'too long' }, { index: 1, error: 'no' }] }, 2)).toEqual(
      new Map([
        [0, 'too long'],
        [1, 'no'],
      ]),
    );
  });

  it('gives the reason of a refused single-record request from its body', () => {
    const request = { method: 'POST', path: '/customers' };
    expect(rejectionReason(new HttpError('refused', { request, status: 400, body: 'email is not valid' }))).toBe('email is not valid');
    expect(rejectionReason(new HttpError('refused', { request, status: 400, body: { message: 'nope' } }))).toBe('nope');
  });
});
