/**
 * Records on the wire. Ids are held as canonical strings; the service sends them as bare JSON
 * integers (beyond 2^53 too), except customers' `id_c`, which it sends as a string. With the
 * `idsAsStrings` gap switch every id goes out as a string instead.
 */

/** Id-valued string members: `"id":"123"`, `"id_shop":"0"` (never `id_payment`, stored as a number). */
const ID_MEMBER = /"(id|id_[a-z0-9_]*)":"(0|[1-9][0-9]*)"/g;
/** The same, leaving `id_c` a string (customers). */
const ID_MEMBER_EXCEPT_ID_C = /"(id|id_(?!c")[a-z0-9_]*)":"(0|[1-9][0-9]*)"/g;

/** How ids are written. */
export interface WireOptions {
  /** Every id as a JSON string (gap switch). */
  idsAsStrings: boolean;
}

/**
 * JSON text of a value (records, arrays of records, report objects). Inside JSON text an unescaped
 * `"key":"digits"` can only be a member, never the inside of a string (quotes there are escaped),
 * so rewriting those members is exact.
 */
export function toWire(value: unknown, opts: WireOptions, collection?: string): string {
  const text = JSON.stringify(value);
  if (opts.idsAsStrings) return text;
  return text.replace(collection === 'customers' ? ID_MEMBER_EXCEPT_ID_C : ID_MEMBER, '"$1":$2');
}

/** A JSON array of bare ids (or strings under `idsAsStrings`). */
export function idsToWire(ids: readonly string[], opts: WireOptions): string {
  return opts.idsAsStrings ? JSON.stringify(ids) : `[${ids.join(',')}]`;
}
