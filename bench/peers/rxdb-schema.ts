/**
 * The RxDB schema of a collection, with the indexes of the mirror's own tables (`buildStores`):
 * `_v` and the fields the query helpers read by, compound indexes as they are. What RxDB
 * adds or cannot take, in its own words: it prefixes every index with `_deleted` and suffixes the
 * primary key, and adds `[_meta.lwt+id]`; its Dexie storage refuses an index on a field that is not
 * `required` (error DXE1), so the indexed fields are listed as required although the service sends
 * null in several of them (email, barcode, id_stockup...): no validator plugin runs (the records were
 * checked by this package's read face in the pull handler), so nothing enforces it. The products'
 * multi-entry search index (`*__search`) has no RxDB equivalent and is left out. Not a benchmark itself.
 */
import type { RxJsonSchema } from 'rxdb';
import { buildStores } from '../../src/db/stores.js';
import type { CollectionName } from '../../src/schema/collections.js';
import type { RxRecord } from './rxdb-pull.js';

/** The mirror's store definition of `collection` as RxDB indexes (the primary key `id` left out). */
export function mirrorIndexes(collection: CollectionName): (string | string[])[] {
  const definition = buildStores()[collection];
  if (definition === undefined) throw new Error(`no store definition for ${collection}`);
  const parts = definition.split(',').map((part) => part.trim());
  return parts
    .filter((part) => part !== 'id' && !part.startsWith('*'))
    .map((part) => (part.startsWith('[') ? part.slice(1, -1).split('+') : part));
}

/** The JSON schema property of an indexed field: times and `_v` are integer ms, the rest strings. */
function property(field: string): Record<string, unknown> {
  if (field === '_v' || field.startsWith('date_')) return { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1 };
  return { type: 'string', maxLength: 255 };
}

/** The RxDB schema of `collection`: primary key `id`, its indexed fields declared, other fields kept as they come. */
export function rxSchema(collection: CollectionName): RxJsonSchema<RxRecord> {
  const indexes = mirrorIndexes(collection);
  const fields = [...new Set(indexes.flat())];
  return {
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: { id: { type: 'string', maxLength: 32 }, ...Object.fromEntries(fields.map((f) => [f, property(f)])) },
    required: ['id', ...fields],
    indexes,
  } as RxJsonSchema<RxRecord>;
}
