import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { NoExtraFields, SaveInputOf } from '../schema/types.js';
import type { MirrorDatabase } from './typed-rows.js';

/**
 * What the scope of `mirror.transaction()` edits with: `save` and `remove` as on the mirror, each
 * edit with its outbox entry, all in the one transaction; and the database as that transaction
 * sees it (reads inside see the edits made before them).
 */
export interface MirrorTransaction {
  /** As `Mirror.save`, inside the transaction: nothing is kept unless the whole scope succeeds. */
  save<C extends CollectionName, X extends object = NoExtraFields>(collection: C, record: SaveInputOf<C, NoInfer<X>>): Promise<Id>;
  /** As `Mirror.remove`, inside the transaction. */
  remove(collection: CollectionName, id: Id): Promise<void>;
  /** The database, its tables bound to the transaction (only the collections it was opened over can be used). */
  readonly db: MirrorDatabase;
}
