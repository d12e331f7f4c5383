import type { MirrorDb } from '../../db/mirror-db.js';
import type { StoredRecord } from '../../db/sync-rows.js';
import { compareIds, type Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { applyServerRecords, applyTables } from './apply-records.js';
import { edgeOf } from './edge.js';
import { nextCheckpoint, startStopwatch, traversalStart } from './checkpoint.js';
import { dropFromQuarantine, holdInQuarantine, idOfRaw, refusalsOfPage } from './quarantine.js';
import type { SyncClient } from '../sync-client.js';
import { PULL_DEFAULTS } from './pull-defaults.js';
import { pageLimitFor, traverse } from './traverse.js';
import { inTransaction } from '../../db/in-transaction.js';
import { outboxOf } from '../../db/outbox-of.js';

/** What a reconcile sweep of one collection found and repaired. */
export interface ReconcileReport {
  collection: CollectionName;
  /** Server records the mirror lacked or had in an older version (the delta missed them). */
  repaired: number;
  /** Local records the server no longer has (removed from the mirror). */
  vanished: number;
  /**
   * Local creates the server never had and no outbox entry would send (`_v` 0, no entry), by id:
   * kept, not removed; the sync queues them again (see `status.orphanedCreates`).
   */
  neverSent: Id[];
  /**
   * Records quarantined: server records the read schema refused (their local copies kept), and
   * the refused hydrated children of parents applied without them.
   */
  quarantined: number;
  /** Records compared. */
  seen: number;
}

/** Options of {@link reconcileCollection}. */
export interface ReconcileOptions {
  db: MirrorDb;
  client: SyncClient;
  /** Records per page, clamped to the collection's maximum as in a pull. @default 400 */
  pageLimit?: number;
  /** Safety margin under the server time of the sweep's start (ms). @default 60_000 */
  skewMarginMs?: number;
  /** Local clock (wall time), read as in a pull (see `startStopwatch`). @default Date.now */
  now?: () => number;
  signal?: AbortSignal;
  onPage?: (records: number) => void;
  /**
   * The history window's edge of the collection (a time, ms): a server record created before it
   * that the mirror does not hold is not added (see `ApplyOptions.outside`). @default unbounded
   */
  windowEdge?: number | undefined;
}

/**
 * A full id traversal of one collection (no version filter) compared with the mirror, side by
 * side in id order: server records missing locally or newer than the local copy are applied
 * (a delta that missed them, or a checkpoint lost), local records the server no longer lists
 * are removed, except records with a pending local edit and local creates the server never had
 * with no outbox entry (`neverSent`), which the sync queues again. Server records the read schema refuses
 * are quarantined, as a pull does, and never count as vanished. What the user sees stays in place
 * during the sweep: nothing is cleared first.
 *
 * The local ids are read once at the start and sorted numerically (a few tens of MB for a
 * million records); records created on either side during the sweep are left for the deltas.
 * On completion the collection's checkpoint is set as a full traversal would set it.
 */
export async function reconcileCollection(collection: CollectionName, options: ReconcileOptions): Promise<ReconcileReport> {
  const { db, client } = options;
  const now = options.now ?? Date.now;
  const report: ReconcileReport = { collection, repaired: 0, vanished: 0, neverSent: [], quarantined: 0, seen: 0 };
  const localIds = (await db.table<StoredRecord, string>(collection).toCollection().primaryKeys()).sort(compareIds);
  const pending = new Set((await outboxOf(db._sync_outbox, collection).toArray()).map((e) => e.id));
  // Read after `pending`: a create acknowledged in between is on the server before the traversal starts.
  const unsent = new Set((await db.table<StoredRecord, string>(collection).where('_v').equals(0).primaryKeys()).filter((id) => !pending.has(id)));
  let next = 0;
  let maxV = 0;
  let startedAt: number | undefined;
  const elapsed = startStopwatch(now);
  const tables = applyTables(db, collection);

  await traverse(client, collection, { direction: 'forward', versionStart: 0, limit: pageLimitFor(collection, options.pageLimit ?? PULL_DEFAULTS.pageLimit) }, options.signal, async (page) => {
    startedAt ??= traversalStart(page, 0, elapsed());
    // A record the read schema refused is still on the server: it is quarantined, not deleted.
    const serverIds = new Set(page.map((r) => r.id));
    for (const rejected of page.rejected) {
      const id = idOfRaw(rejected.raw);
      if (id !== undefined) serverIds.add(id);
    }
    const upTo = page.cursor;
    const missing: string[] = [];
    // Local ids up to this page's last id that the page does not list are gone from the server.
    while (next < localIds.length && upTo !== undefined && compareIds(localIds[next]!, upTo) <= 0) {
      const id = localIds[next++]!;
      if (!serverIds.has(id) && !pending.has(id)) missing.push(id);
    }
    if (page.done) {
      for (; next < localIds.length; next++) if (!pending.has(localIds[next]!)) missing.push(localIds[next]!);
    }
    // A local create the server never had is not gone from it: it was never sent.
    const vanished = missing.filter((id) => !unsent.has(id));
    report.neverSent.push(...missing.filter((id) => unsent.has(id)));
    // A parent refused only for a bad hydrated child is applied without it; the child is quarantined.
    const refused = refusalsOfPage(collection, page.rejected, now);
    const records = refused.rescued.length > 0 ? [...page, ...refused.rescued] : page;
    await inTransaction(db, 'rw', tables, async (db) => {
      const applied = await applyServerRecords(db, collection, records, { contiguous: true, ...(options.windowEdge === undefined ? {} : { outside: edgeOf(options.windowEdge) }) });
      report.repaired += applied.written;
      maxV = Math.max(maxV, applied.maxV);
      if (vanished.length > 0) {
        await db.table(collection).bulkDelete(vanished);
        await dropFromQuarantine(db, collection, vanished);
      }
      await holdInQuarantine(db, refused.rows);
    });
    report.vanished += vanished.length;
    report.quarantined += refused.rows.length;
    report.seen += page.length;
    options.onPage?.(report.seen);
  });

  const row = (await db._sync_checkpoints.get(collection)) ?? { collection, checkpoint: 0, initialDone: false };
  await db._sync_checkpoints.put({
    ...row,
    checkpoint: nextCheckpoint(row.checkpoint, maxV, startedAt ?? now(), options.skewMarginMs ?? PULL_DEFAULTS.skewMarginMs),
    cursor: undefined,
    backwardCursor: undefined,
    initialDone: true,
    lastSyncAt: now(),
    reconciledAt: now(),
  });
  return report;
}
