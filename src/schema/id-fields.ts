import { isId, tryToId } from '../ids/id.js';

/**
 * Fields named like ids (`id_*`) that are not references but integer codes. `id_payment`
 * names a payment form (221 = cash, 222 = credit card, 238 = a terminal provider), it is
 * typed "integer" by the spec and compared with numbers by apps, so it stays a number.
 */
const NOT_ID_FIELDS: ReadonlySet<string> = new Set(['id_payment']);

/**
 * True for the names of id fields: `id`, `id_c` and every `id_*` reference (spec convention 4),
 * except the integer code `id_payment`.
 */
export function isIdFieldName(name: string): boolean {
  // First letters tested by code: this runs on every key of every record read.
  if (name.charCodeAt(0) !== 105 /* i */ || name.charCodeAt(1) !== 100 /* d */) return false;
  return name.length === 2 || (name.charCodeAt(2) === 95 /* _ */ && !NOT_ID_FIELDS.has(name));
}

/**
 * Rewrites, in place, every id-named field of `record` whose value is an id in another form
 * (number, bigint, padded digit string) to the canonical {@link Id}. Fields the schema does not
 * describe are covered too, so an undescribed `id_*` from the server is stored canonically.
 * Values that cannot be ids are left alone: the schema decides whether they are an error.
 */
export function normalizeIdFields<T extends object>(record: T): T {
  const fields = record as Record<string, unknown>;
  // `for...in` rather than Object.keys: no array per record (this runs on every record read).
  for (const key in fields) {
    if (!isIdFieldName(key) || !Object.prototype.hasOwnProperty.call(fields, key)) continue;
    const value = fields[key];
    if (typeof value === 'number') {
      // The usual case: the strict JSON parser returns ids below 2^53 as numbers.
      if (Number.isSafeInteger(value) && value >= 0) fields[key] = String(value);
    } else if ((typeof value === 'string' || typeof value === 'bigint') && !isId(value)) {
      const id = tryToId(value);
      if (id !== undefined) fields[key] = id;
    }
  }
  return record;
}

/**
 * Names of the fields of `record` that hold a canonical id (`id`, `id_c`, `id_*`), in key order.
 * The JSON writer emits these as bare integers; null refs and fields that are not ids are left out.
 */
export function idFieldsOf(record: object): string[] {
  const fields = record as Record<string, unknown>;
  return Object.keys(fields).filter((key) => isIdFieldName(key) && isId(fields[key]));
}
