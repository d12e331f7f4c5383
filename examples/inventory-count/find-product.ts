import type { Mirror, StoredRecord } from 'pos-cloud-mirror';

/** How many name matches the scan box offers to pick from. */
const MAX_MATCHES = 8;

/** What a scanned or typed code means: one product, several to pick from, or none. */
export type Found = { kind: 'one'; product: StoredRecord } | { kind: 'several'; products: StoredRecord[] } | { kind: 'none' };

/**
 * Finds the product a scanned or typed code means: a barcode, EAN or SKU exactly, else the
 * products whose name (or alternative name, code or category) matches, best first. Several name
 * matches are offered to pick from rather than guessed.
 */
export async function findProduct(mirror: Mirror, code: string): Promise<Found> {
  const text = code.trim();
  if (!text) return { kind: 'none' };
  const exact = await mirror.query.productByCode(text);
  if (exact) return { kind: 'one', product: exact };
  const byName = (await mirror.query.searchProducts(text, { limit: MAX_MATCHES + 1 })).filter((p) => p.visible !== false);
  if (byName.length === 1) return { kind: 'one', product: byName[0]! };
  if (byName.length > 1) return { kind: 'several', products: byName.slice(0, MAX_MATCHES) };
  return { kind: 'none' };
}
