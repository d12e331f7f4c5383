import type { MirrorDb } from '../../db/mirror-db.js';
import type { OutboxEntry } from '../../db/sync-rows.js';

/** Every local edit the server has not acknowledged (pending, rejected and in conflict), in edit order. */
export async function listOutbox(db: MirrorDb): Promise<OutboxEntry[]> {
  return db._sync_outbox.toArray();
}
