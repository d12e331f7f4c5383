import type { CollectionName } from '../schema/collections.js';
import type { StoredRecord } from '../db/sync-rows.js';

/** A child record carried inside a parent record by the server, bound for its own table. */
export interface SplitChild {
  collection: CollectionName;
  record: StoredRecord;
}

/** A hydration the server nests in records of a parent collection: its field, and the child table it is split into. */
export interface Hydration {
  field: string;
  child: CollectionName;
}

/** The hydrations, by parent collection (DESIGN.md decision 8). */
export const HYDRATIONS: Readonly<Partial<Record<CollectionName, Hydration>>> = {
  products: { field: '__price_matrix_model', child: 'product_price_matrix' },
  orders: { field: '__order_details', child: 'order_details' },
};

/** Child table by hydration field, derived from {@link HYDRATIONS}. */
const CHILD_BY_FIELD = new Map<string, CollectionName>(Object.values(HYDRATIONS).map((h) => [h.field, h.child]));

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
    const child = CHILD_BY_FIELD.get(key);
    if (child) pushChildren(children, child, value);
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
