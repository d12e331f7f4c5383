/**
 * Records on the wire. Ids are held as canonical strings; the service sends them as bare JSON
 * integers (beyond 2^53 too), except customers' `id_c`, which it sends as a string. With the
 * `idsAsStrings` gap switch every id goes out as a string instead; with `looseWire`, every number
 * goes out as a string and every boolean as 0 or 1, as a loosely typed backend writes them.
 */

/** How values are written. */
export interface WireOptions {
  /** Every id as a JSON string (gap switch). */
  idsAsStrings: boolean;
  /** Numbers (ids included) as JSON strings, booleans as 0/1 (gap switch). */
  looseWire?: boolean;
}

/**
 * JSON text of a value (records, arrays of records, report objects): native JSON.stringify, then
 * the quotes around id members' digits dropped (see {@link bareIds}).
 */
export function toWire(value: unknown, opts: WireOptions, collection?: string): string {
  if (opts.looseWire) return JSON.stringify(value, loosely);
  const text = JSON.stringify(value);
  return opts.idsAsStrings ? text : bareIds(text, collection === 'customers');
}

/** A JSON.stringify replacer writing numbers as strings and booleans as 0/1. */
function loosely(_key: string, value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** A JSON array of bare ids (or strings under `idsAsStrings`). */
export function idsToWire(ids: readonly string[], opts: WireOptions): string {
  return opts.idsAsStrings || opts.looseWire ? JSON.stringify(ids) : `[${ids.join(',')}]`;
}

const QUOTE = 34;
const COLON = 58;
const UNDERSCORE = 95;

function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === UNDERSCORE;
}

/**
 * Rewrites members `"id":"123"`, `"id_shop":"0"` (`id`, `id_*`; never `id_payment`, which is held
 * as a number) to `"id":123`. A member key starts right after `{` or `,`; inside a JSON string every
 * quote is escaped, so such a `"id` can only be a key and the rewrite is exact. `keepIdC` leaves
 * `id_c` a string (customers). A scan with indexOf, about twice as fast as an equivalent regex.
 */
function bareIds(text: string, keepIdC: boolean): string {
  let out = '';
  let last = 0;
  let at = text.indexOf('"id');
  while (at >= 0) {
    let k = at + 3;
    const before = text.charCodeAt(at - 1);
    if (text.charCodeAt(k) === UNDERSCORE) {
      k++;
      while (isKeyChar(text.charCodeAt(k))) k++;
    }
    if ((before === 123 || before === 44) && text.charCodeAt(k) === QUOTE && text.charCodeAt(k + 1) === COLON && text.charCodeAt(k + 2) === QUOTE) {
      const first = k + 3;
      let end = first;
      for (let c = text.charCodeAt(end); c >= 48 && c <= 57; c = text.charCodeAt(++end));
      const canonical = end > first && (text.charCodeAt(first) !== 48 || end === first + 1);
      const isIdC = k === at + 5 && text.charCodeAt(at + 4) === 99;
      if (canonical && text.charCodeAt(end) === QUOTE && !(keepIdC && isIdC)) {
        out += text.slice(last, k + 2) + text.slice(first, end);
        last = end + 1;
        at = text.indexOf('"id', last);
        continue;
      }
    }
    at = text.indexOf('"id', k);
  }
  return last === 0 ? text : out + text.slice(last);
}
