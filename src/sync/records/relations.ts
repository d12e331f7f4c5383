import type { CollectionName } from '../../schema/collections.js';

/**
 * The order in which collections are pushed: a record goes out after the records it refers to
 * (spec: "Relation `id` fields"). Shops, registers, park locations, employees and shifts first;
 * then warehouses, customers and products; prices after products; orders after all they
 * reference; order items, transactions and stock-ups after orders; stock history last (it
 * references stock-ups and orders).
 *
 * The order alone does not keep a new child from reaching the server before its new parent: a
 * parent create can be refused, wait as a conflict, or sit in a collection not pushed this time.
 * The push therefore also holds back each record that references a parent (see
 * {@link parentReferences}) still created locally only (its outbox entry a create the server has
 * not acknowledged): a server, or another client, that reads a new child never meets a parent
 * that is not there yet. References within one collection (an order item's
 * `id_order_details_parent`) are not held back: both go out in the same push, in edit order.
 */
export const PUSH_ORDER: readonly CollectionName[] = [
  'shops',
  'cash_registers',
  'park_locations',
  'employees',
  'shifts',
  'warehouses',
  'customers',
  'products',
  'product_price_matrix',
  'orders',
  'order_details',
  'transactions',
  'stockup',
  'stock_history',
];

/** The given collections (all when none are given), without repeats, in {@link PUSH_ORDER}. */
export function pushOrder(collections?: readonly CollectionName[]): CollectionName[] {
  if (!collections) return [...PUSH_ORDER];
  const wanted = new Set(collections);
  return PUSH_ORDER.filter((c) => wanted.has(c));
}

/**
 * Relation fields and the collection each refers to (spec: "Relation `id` fields"), by name in
 * every collection. Fields naming records outside the 14 collections (categories, addresses,
 * shipping, tax rules, exec rules, suppliers...) are not listed.
 */
const REFERENCE_FIELDS: Readonly<Record<string, CollectionName>> = {
  id_shop: 'shops',
  id_cash_register: 'cash_registers',
  id_park_location: 'park_locations',
  id_employee: 'employees',
  id_employee_served: 'employees',
  id_shift: 'shifts',
  id_warehouse: 'warehouses',
  id_customer: 'customers',
  id_product: 'products',
  id_order: 'orders',
  id_canceled_order: 'orders',
  id_superseded: 'orders',
  id_stockup: 'stockup',
};

/** Relation fields of one collection only: stock history's `id_record` is the product moved. */
const OWN_REFERENCE_FIELDS: Partial<Record<CollectionName, Readonly<Record<string, CollectionName>>>> = {
  stock_history: { id_record: 'products' },
};

const PARENT_REFERENCES = new Map<CollectionName, readonly (readonly [field: string, parent: CollectionName])[]>(
  PUSH_ORDER.map((child, position) => {
    const fields = Object.entries({ ...REFERENCE_FIELDS, ...OWN_REFERENCE_FIELDS[child] });
    return [child, fields.filter(([, parent]) => PUSH_ORDER.indexOf(parent) < position)];
  }),
);

/**
 * The relation fields of `collection` that refer to a parent collection (one pushed before it
 * in {@link PUSH_ORDER}), each with that collection: `[['id_shop', 'shops'], ...]`.
 */
export function parentReferences(collection: CollectionName): readonly (readonly [field: string, parent: CollectionName])[] {
  return PARENT_REFERENCES.get(collection) ?? [];
}

const CHILD_REFERENCES = new Map<CollectionName, readonly (readonly [child: CollectionName, fields: readonly string[]])[]>(
  PUSH_ORDER.map((parent) => [
    parent,
    PUSH_ORDER.flatMap((child) => {
      const fields = parentReferences(child)
        .filter(([, to]) => to === parent)
        .map(([field]) => field);
      return fields.length > 0 ? [[child, fields] as const] : [];
    }),
  ]),
);

/**
 * The other side of {@link parentReferences}: the collections whose relation fields may point at
 * a record of `collection`, each with those fields: `orders` → `[['order_details', ['id_order']], ...]`.
 */
export function childReferences(collection: CollectionName): readonly (readonly [child: CollectionName, fields: readonly string[]])[] {
  return CHILD_REFERENCES.get(collection) ?? [];
}

/**
 * Whether `field` of a `collection` record may hold the id of a `target` record: a relation field
 * that names `target` (spec: "Relation `id` fields"; stock history's `id_record` names products),
 * or an `id_*` field the spec names no collection for (`id_order_details_parent`, ...), whose
 * value alone can tell. A relation field that names another collection never does.
 */
export function mayReference(collection: CollectionName, field: string, target: CollectionName): boolean {
  const own = OWN_REFERENCE_FIELDS[collection];
  const named = own && Object.hasOwn(own, field) ? own[field] : Object.hasOwn(REFERENCE_FIELDS, field) ? REFERENCE_FIELDS[field] : undefined;
  if (named !== undefined) return named === target;
  return field.startsWith('id_');
}
