/**
 * Records as the simulator holds them: plain objects keyed by wire field names, with every id
 * (`id`, `id_c`, `id_*`) as a canonical decimal string. The wire writer turns those into bare
 * JSON integers (or leaves them strings when the `idsAsStrings` gap switch is on).
 */
import { COLLECTION_INFO } from '../schema/collection-info.js';
import type { SimTable } from './sim-ids.js';

/** One stored record. */
export type SimRecord = Record<string, unknown>;

/**
 * True when records of `table` carry `date_created`: all but shops and cash registers, whose read
 * shapes in the spec show none (`COLLECTION_INFO`), and categories, which are not a collection there.
 */
export function hasDateCreated(table: SimTable): boolean {
  return table === 'categories' || COLLECTION_INFO[table].hasDateCreated;
}
