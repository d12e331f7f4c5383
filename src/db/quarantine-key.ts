import { tryToId } from '../ids/id.js';

/**
 * The primary key of a quarantine row: one row per server record. `collection:id` when the
 * record's id could be read (canonical when it is an id at all, so `"007"`, `7` and `7n` are one
 * record); for a record without a readable id, `collection:?` and a hash of the record as
 * received, so the same unreadable record sent again still lands on its one row.
 */
export function quarantineKey(collection: string, id: string | undefined, record: unknown): string {
  if (id !== undefined) return `${collection}:${tryToId(id) ?? id}`;
  return `${collection}:?${hashText(recordText(record))}`;
}

/** The record as JSON text, big integers written as `123n` (JSON.stringify refuses bigints). */
function recordText(record: unknown): string {
  // JSON.stringify gives undefined for undefined and functions, whatever its declared type says.
  const text = JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- see above
  return text ?? String(record);
}

/** A 53-bit hash of `text` (cyrb53), in base 36: collisions between two bad records are negligible. */
function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
