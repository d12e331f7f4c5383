import type { CollectionName } from '../../schema/collections.js';
import type { StoredRecord } from '../../db/sync-rows.js';
import type { ValidationIssue } from '../../errors/index.js';
import { parseRecord } from '../../schema/index.js';

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

/** The hydrations, by parent collection (docs/design.md, decision 8). */
export const HYDRATIONS: Readonly<Partial<Record<CollectionName, Hydration>>> = {
  products: { field: '__price_matrix_model', child: 'product_price_matrix' },
  orders: { field: '__order_details', child: 'order_details' },
};

/** Child table by hydration field, derived from {@link HYDRATIONS}. */
const CHILD_BY_FIELD = new Map<string, CollectionName>(Object.values(HYDRATIONS).map((h) => [h.field, h.child]));

/**
 * Hydrations (`__price_matrix_model` in products, `__order_details` in an order fetched with its
 * items) are split into their own tables on the way in (docs/design.md, decision 8). Returns the parent
 * without any `__` field, and the children. Unknown hydrations are dropped from the stored parent:
 * they are derived data the server recomputes, and they are never sent back.
 */
export function splitHydrations(record: StoredRecord): { record: StoredRecord; children: SplitChild[] } {
  let stripped: StoredRecord | undefined;
  const children: SplitChild[] = [];
  // `for...in` over own keys (a parsed record has no inherited enumerable ones) allocates no key
  // array: most records carry no `__` field, and this runs for every record applied.
  for (const key in record) {
    if (key.charCodeAt(0) !== 95 || key.charCodeAt(1) !== 95 || !Object.hasOwn(record, key)) continue; // '__'
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

/** A hydrated child that its own collection's read schema refused. */
export interface RefusedChild {
  collection: CollectionName;
  /** The child exactly as received. */
  raw: unknown;
  /** Why it was refused (paths relative to the child). */
  issues: ValidationIssue[];
}

/** A parent record read again without the hydration that refused it (see {@link rescueParent}). */
export interface RescuedParent {
  /** The parent as its read schema gives it, with the children that passed in its hydration field. */
  record: StoredRecord;
  /** The children that did not pass, to be quarantined as records of the child collection. */
  refused: RefusedChild[];
}

/**
 * The read schema parses a parent's hydration with the child's read face, so one bad child
 * refuses its parent: one bad price row would keep a valid product out of the mirror. For a record
 * of `collection` refused only under its hydration field (every issue's path starts there), this
 * reads the parent without that field, checks each child against its own collection's read
 * schema, and returns the parent with the children that passed in its hydration field (so
 * {@link splitHydrations} applies them as usual) and the children that did not. Returns undefined
 * when the record is refused for itself (an issue outside the hydration), or its collection has
 * no hydration: it stays quarantined whole.
 */
export function rescueParent(collection: CollectionName | 'categories', raw: unknown, issues: readonly ValidationIssue[]): RescuedParent | undefined {
  const hydration = collection === 'categories' ? undefined : HYDRATIONS[collection];
  if (!hydration || issues.length === 0 || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  if (!issues.every((issue) => issue.path[0] === hydration.field)) return undefined;
  const { [hydration.field]: value, ...rest } = raw as Record<string, unknown>;
  const parent = parseRecord(collection, rest);
  if (!parent.ok) return undefined;
  const good: StoredRecord[] = [];
  const refused: RefusedChild[] = [];
  for (const item of Array.isArray(value) ? value : value == null ? [] : [value]) {
    const child = parseRecord(hydration.child, item);
    if (child.ok) good.push(child.record);
    else refused.push({ collection: hydration.child, raw: item, issues: child.issues });
  }
  const record = parent.record as StoredRecord;
  record[hydration.field] = Array.isArray(value) ? good : (good[0] ?? null);
  return { record, refused };
}
