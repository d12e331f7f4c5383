/** Bounds of one batch POST. */
export interface BatchLimits {
  /**
   * Most records in one POST body.
   * @default 100
   */
  maxRecords: number;
  /**
   * Most bytes of one POST body (UTF-8 JSON). A single record larger than this goes alone.
   * @default 524288
   */
  maxBytes: number;
}

/** Every default of {@link BatchLimits}. */
export const BATCH_DEFAULTS = { maxRecords: 100, maxBytes: 524_288 } as const satisfies BatchLimits;

/**
 * Cuts items (already in push order) into consecutive batches of at most `maxRecords` items
 * and `maxBytes` bytes of JSON array body, keeping their order. `sizeOf` gives an item's size
 * as JSON; an upper bound is fine (ids measured as quoted strings go out as bare integers, two
 * bytes shorter). An item larger than `maxBytes` on its own gets a batch of its own: it cannot
 * be split, and the server is the one to say whether it is too large.
 */
export function planBatches<T>(items: readonly T[], limits: BatchLimits, sizeOf: (item: T) => number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 2; // "[" and "]"
  for (const item of items) {
    const size = sizeOf(item);
    const added = current.length === 0 ? size : size + 1; // "," between items
    if (current.length > 0 && (current.length >= limits.maxRecords || bytes + added > limits.maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 2;
    }
    bytes += current.length === 0 ? size : size + 1;
    current.push(item);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Size in bytes of a value's JSON text in UTF-8 (an upper bound of what `stringifyJson` sends for records with string ids). */
export function jsonBytes(value: unknown): number {
  // JSON.stringify gives undefined for undefined, whatever its declared type says.
  const text = JSON.stringify(value);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- see above
  return utf8Length(text ?? 'null');
}

const NON_ASCII = /[\u0080-\uffff]/;

/** Bytes of a string in UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
