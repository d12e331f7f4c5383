import type { MirrorDb } from '../../db/mirror-db.js';
import type { OutboxEntry } from '../../db/sync-rows.js';

/** Every local edit the server has not acknowledged (pending, rejected and in conflict), in edit order. */
export async function listOutbox(db: MirrorDb): Promise<OutboxEntry[]> {
  return db._sync_outbox.toArray();
}

/**
 * When the oldest edit the server has not acknowledged was made (the least `createdAt` of the
 * outbox, any state), or `undefined` for an empty outbox. Every entry is read: entries taken over
 * from another copy keep their first edit's time but come after this mirror's own in `seq`.
 */
export async function oldestEditAt(db: MirrorDb): Promise<number | undefined> {
  let oldest: number | undefined;
  await db._sync_outbox.each((entry) => {
    if (oldest === undefined || entry.createdAt < oldest) oldest = entry.createdAt;
  });
  return oldest;
}
