import { Dexie, type Collection, type Table } from 'dexie';
import type { CollectionName } from '../schema/collections.js';
import type { OutboxEntry } from './sync-rows.js';

/**
 * The outbox entries of one collection, in id order: a range of the `[collection+id]` index, which
 * serves its first field as a `collection` index would (schema version 9 keeps no index beside it).
 */
export function outboxOf(outbox: Table<OutboxEntry, number>, collection: CollectionName): Collection<OutboxEntry, number> {
  return outbox.where('[collection+id]').between([collection, Dexie.minKey], [collection, Dexie.maxKey]);
}
