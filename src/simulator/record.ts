/**
 * Records as the simulator holds them: plain objects keyed by wire field names, with every id
 * (`id`, `id_c`, `id_*`) as a canonical decimal string. The wire writer turns those into bare
 * JSON integers (or leaves them strings when the `idsAsStrings` gap switch is on).
 */
import { tryToId } from '../ids/id.js';
import { COLLECTION_INFO } from '../schema/collection-info.js';
import type { SimTable } from './sim-ids.js';

/** One stored record. */
export type SimRecord = Record<string, unknown>;

/**
 * True for fields that hold record ids: `id`, `id_c` and `id_*`, except `id_payment`,
 * which the spec lists among the order numbers (a payment-form code, not a reference).
 */
export function isIdField(key: string): boolean {
  return key === 'id' || (key.startsWith('id_') && key !== 'id_payment');
}

/**
 * Puts every id field of a validated body into canonical string form (the schema may hand back
 * numbers or bigints) and `id_payment` back to a number. Returns a new object.
 */
export function normalizeIdFields(record: SimRecord): SimRecord {
  const out: SimRecord = {};
  for (const [key, value] of Object.entries(record)) {
    if (isIdField(key) && (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string')) {
      out[key] = tryToId(value) ?? value;
    } else if (key === 'id_payment' && (typeof value === 'string' || typeof value === 'bigint')) {
      out[key] = Number(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Fields the server owns: a body's values for them are ignored on POST. */
export const SERVER_FIELDS: ReadonlySet<string> = new Set(['pgx', '_u_dyn', '_v', 'id_c']);

/**
 * True when records of `table` carry `date_created`: all but shops and cash registers, whose read
 * shapes in the spec show none (`COLLECTION_INFO`), and categories, which are not a collection there.
 */
export function hasDateCreated(table: SimTable): boolean {
  return table === 'categories' || COLLECTION_INFO[table].hasDateCreated;
}

/** True for hydration fields (`__price_matrix_model`, `__order_details`), never stored. */
export function isHydration(key: string): boolean {
  return key.startsWith('__');
}
