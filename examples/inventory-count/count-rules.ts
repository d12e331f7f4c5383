import type { StoredRecord } from 'pos-cloud-mirror';

/**
 * The `unit` code of goods counted in pieces. The spec does not name `unit` codes; 0 is what the
 * simulator uses for pieces (1 for goods sold by weight). Set your system's code.
 */
export const PIECES_UNIT = 0;

/** True when the product is counted in whole pieces. */
export function countedInPieces(product: StoredRecord | undefined): boolean {
  return (product?.unit ?? PIECES_UNIT) === PIECES_UNIT;
}

/** A quantity typed for a product: the number, or why it cannot be counted. */
export type CountEntry = { ok: true; quantity: number } | { ok: false; message: string };

/**
 * Reads a typed count: a number of 0 or more, whole for goods counted in pieces; by weight, up
 * to three decimals (the warehouse report's precision). Nothing is changed silently: a count
 * that cannot be right is refused with a message saying why.
 */
export function readCount(text: string, product: StoredRecord | undefined): CountEntry {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { ok: false, message: 'Type how many were counted (0 if none).' };
  const quantity = Number(trimmed);
  if (!Number.isFinite(quantity)) return { ok: false, message: `“${text.trim()}” is not a number.` };
  if (quantity < 0) return { ok: false, message: 'A count cannot be below zero.' };
  if (countedInPieces(product) && !Number.isInteger(quantity)) return { ok: false, message: 'Counted in pieces: type a whole number.' };
  if (Math.round(quantity * 1000) !== quantity * 1000) return { ok: false, message: 'At most three decimals.' };
  return { ok: true, quantity };
}
