import type { StoredRecord } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';

/**
 * True when a record is deleted: `_d` set, or, for products, `visible` false (spec: "visible
 * false on a product means deleted"; docs/design.md, decision 9).
 */
export function isTombstone(collection: CollectionName, record: StoredRecord): boolean {
  if (typeof record._d === 'number' && record._d !== 0) return true;
  return collection === 'products' && record.visible === false;
}

/** The fields a deletion changes: `_d`, and `visible` for products. */
export function deletionFields(collection: CollectionName): string[] {
  return collection === 'products' ? ['_d', 'visible'] : ['_d'];
}
