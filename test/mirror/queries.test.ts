import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import { isLive } from '../../src/mirror/queries.js';

const record = (fields: Partial<StoredRecord> & { _t: string }): StoredRecord => ({ id: '10', _v: 1, _d: 0, ...fields }) as StoredRecord;

describe('isLive', () => {
  it('is false for a record with _d set, in any collection', () => {
    for (const _t of ['products', 'orders', 'categories', 'shops']) {
      expect(isLive(record({ _t }))).toBe(true);
      expect(isLive(record({ _t, _d: 1_700_000_000_000 }))).toBe(false);
    }
  });

  it('takes visible false for a deletion only on products, as the spec says', () => {
    expect(isLive(record({ _t: 'products', visible: false }))).toBe(false);
    for (const _t of ['categories', 'shops', 'cash_registers', 'employees', 'warehouses']) expect(isLive(record({ _t, visible: false })), _t).toBe(true);
  });
});
