import type { MirrorDb } from '../../db/mirror-db.js';
import type { OutboxEntry } from '../../db/sync-rows.js';
import type { Id } from '../../ids/id.js';
import { inTransaction } from '../../db/in-transaction.js';

/**
 * Puts rejected entries back in the queue (state `pending`, reason cleared), all of them or
 * those of the given record ids, in one transaction; the next push sends them again. Useful when
 * the server refused a record for a reason that has since gone away (a missing parent that now
 * exists). An entry is also retried by itself when the app edits its record again.
 * Returns how many entries were put back.
 */
export async function retryRejected(db: MirrorDb, ids?: readonly Id[]): Promise<number> {
  const wanted = ids ? new Set(ids) : undefined;
  return inTransaction(db, 'rw', db._sync_outbox, async (db) => {
    const rejected = await db._sync_outbox.where('state').equals('rejected').toArray();
    const retried: OutboxEntry[] = [];
    for (const entry of rejected) {
      if (wanted && !wanted.has(entry.id)) continue;
      const next: OutboxEntry = { ...entry, state: 'pending' };
      delete next.reason;
      retried.push(next);
    }
    if (retried.length > 0) await db._sync_outbox.bulkPut(retried);
    return retried.length;
  });
}
