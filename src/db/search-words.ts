/**
 * The words a product is found by: text folded the way a person types it (no case, no
 * diacritics: "Káva" is found by "kava", "KÁVA" and "káva"), cut into words.
 */

/** Fields of a product whose words it is found by. */
export const PRODUCT_SEARCH_FIELDS = ['name', 'name_alternative', 'sku', 'barcode', 'ean13', 'upc'] as const;

/** The field holding a product's search words (a `__` field: never sent, never merged). */
export const SEARCH_FIELD = '__search';

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * `text` folded for search: Unicode compatibility decomposition with the combining marks taken
 * away (so accents go, whatever the script), then lower case. "Žluťoučký" becomes "zlutoucky",
 * "ﬁlter" becomes "filter".
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** The words of `text`, folded (see {@link foldForSearch}), cut at anything that is not a letter or a digit. */
export function searchWords(text: string): string[] {
  return foldForSearch(text)
    .split(SEPARATORS)
    .filter((word) => word !== '');
}

/**
 * The entry that finds a product by its whole name: `=` and the name's words, folded, joined by
 * one space ("Cola" gives `=cola`). A search for a name that starts others ("Cola" among "Cola
 * Zero", "Cola Light"...) reaches that product at once, however many others share the word.
 */
export function wholeNameEntry(words: readonly string[]): string {
  return `=${words.join(' ')}`;
}

/**
 * The distinct entries a product is found by: the words of its name, alternative name and codes,
 * and its {@link wholeNameEntry}. None for a deleted product (`_d` set, or `visible` false: the
 * spec's deletion of a product), so the deleted never crowd the living out of a search.
 */
export function productSearchWords(record: Readonly<Record<string, unknown>>): string[] {
  if ((typeof record._d === 'number' && record._d !== 0) || record.visible === false) return [];
  const words = new Set<string>();
  if (typeof record.name === 'string') words.add(wholeNameEntry(searchWords(record.name)));
  for (const field of PRODUCT_SEARCH_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') for (const word of searchWords(value)) words.add(word);
  }
  return [...words];
}

/**
 * The distinct words of a category's name, which find the category's products (see
 * `searchProducts`). None for a deleted category (`_d` set), so a search never reaches products
 * through it; a hidden one (`visible` false) still exists and keeps its words.
 */
export function categorySearchWords(record: Readonly<Record<string, unknown>>): string[] {
  if (record._d || typeof record.name !== 'string') return [];
  return [...new Set(searchWords(record.name))];
}
