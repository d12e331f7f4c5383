/**
 * The records a soak edits and the fields it writes in each, with the value a writer writes at a
 * step: unique in the run (text names the writer and the step; numbers are step × 32 + writer),
 * so that a value on the server names the write it came from.
 */
import type { Writer } from './ledger.js';

/** Collections whose existing records devices and registers edit. */
export const EDITED = ['customers', 'products', 'product_price_matrix', 'orders', 'order_details', 'warehouses', 'stockup', 'stock_history'] as const;
/** One of {@link EDITED}. */
export type EditedCollection = (typeof EDITED)[number];

/** Collections whose records devices and registers delete. */
export const REMOVED = ['customers', 'products', 'product_price_matrix', 'warehouses', 'orders'] as const;
/** One of {@link REMOVED}. */
export type RemovedCollection = (typeof REMOVED)[number];

/** Fields written per collection, and whether each holds text or a number. */
export const EDIT_FIELDS: { readonly [C in EditedCollection]: readonly (readonly [field: string, kind: 'text' | 'number'])[] } = {
  customers: [['firstname', 'text'], ['lastname', 'text'], ['note_internal', 'text'], ['tags', 'text'], ['phone_number', 'text']],
  products: [['name', 'text'], ['notes_quick', 'text'], ['sku', 'text'], ['description_short', 'text']],
  product_price_matrix: [['unit_price_regular_tax_excl', 'number'], ['reduction_amount_a_tax_excl', 'number']],
  orders: [['note', 'text'], ['tags', 'text'], ['summary', 'text']],
  order_details: [['note', 'text'], ['tags', 'text'], ['product_quantity', 'number']],
  warehouses: [['name', 'text']],
  stockup: [['note', 'text'], ['invoice_number', 'text']],
  stock_history: [['note', 'text'], ['quanity', 'number']],
};

/** How many records at the head of a collection (oldest ids first) everyone edits: where writers meet. */
export const HOT_RECORDS = 3;

/** The index of a writer in values: 0 for the registers, n for device n. */
function writerIndex(writer: Writer): number {
  return writer === 'register' ? 0 : Number(writer.slice('device '.length));
}

/**
 * The value `writer` writes into a field of this kind at `step`, unique in the run; `part` (0..7)
 * tells apart the values of one step (the records and fields of one create).
 */
export function uniqueValue(kind: 'text' | 'number', writer: Writer, step: number, part = 0): string | number {
  const w = writerIndex(writer);
  if (kind === 'number') return (step * 8 + part) * 32 + w;
  return `${w === 0 ? 'r' : `d${w}`}#${step}${part === 0 ? '' : `.${part}`}`;
}

/** The kind of value the soak writes into `field` of `collection` (one of its EDIT_FIELDS). */
export function fieldKind(collection: EditedCollection, field: string): 'text' | 'number' {
  const found = EDIT_FIELDS[collection].find(([name]) => name === field);
  if (!found) throw new Error(`soak: ${collection}.${field} is not a field the soak edits`);
  return found[1];
}

