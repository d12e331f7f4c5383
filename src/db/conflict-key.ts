import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';

/** The key of a record's row in `_sync_conflicts`: `${collection}:${id}`. */
export function conflictKey(collection: CollectionName, id: Id): string {
  return `${collection}:${id}`;
}
