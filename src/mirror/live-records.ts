import type { StoredRecord } from '../db/sync-rows.js';

/**
 * True for a record that is not deleted: `_d` unset or 0, and, for a product, `visible` not false
 * (spec: "visible false on a product means deleted"). On other records `visible` only says whether
 * to show them (a hidden shop, register or category still exists), so apps decide about it.
 */
export function isLive(record: StoredRecord): boolean {
  return !record._d && !(record._t === 'products' && record.visible === false);
}
