import type { CollectionName } from '../schema/collections.js';
import type { StoredRecord } from '../db/sync-rows.js';

/** A child record carried inside a parent record by the server, bound for its own table. */
export interface SplitChild {
  collection: CollectionName;
  record: StoredRecord;
}

/**
 * Hydrations (`__price_matrix_model` in products, `__order_details` in an order fetched with its
 * items) are split into their own tables on the way in (DESIGN.md decision 8). Returns the parent
 * without any `__` field, and the children. Unknown hydrations are dropped from the stored parent:
 * they are derived data the server recomputes, and they are never sent back.
 */
export function splitHydrations(record: StoredRecord): { record: StoredRecord; children: SplitChild[] } {
  let stripped: StoredRecord | undefined;
  const children: SplitChild[] = [];
  for (const key of Object.keys(record)) {
    if (!key.startsWith('__')) continue;
    stripped ??= { ...record };
    const value = record[key];
    delete stripped[key];
    if (key === '__price_matrix_model') pushChildren(children, 'product_price_matrix', value);
    else if (key === '__order_details') pushChildren(children, 'order_details', value);
  }
  return { record: stripped ?? record, children };
}

function pushChildren(into: SplitChild[], collection: CollectionName, value: unknown): void {
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (isStoredRecord(item)) into.push({ collection, record: item });
  }
}

function isStoredRecord(value: unknown): value is StoredRecord {
  return (
    typeof value === 'object' && value !== null && typeof (value as StoredRecord).id === 'string' &&
    (value as StoredRecord).id !== '0' && typeof (value as StoredRecord)._v === 'number'
  );
}
