import { META_KEYS } from '../../db/meta-keys.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { OrphanedCreate } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import { findUnsentCreates, requeueCreates, type RecordRef } from '../outbox/index.js';

/**
 * Finds the local creates of `collections` that no push will send, and queues them again (see
 * `requeueCreates`); returns those queued. Run at the end of a sync run, after its push and the
 * pulls that read back what the push sent.
 *
 * A record with `_v` 0 and no outbox entry is either such a create or one acknowledged so lately
 * that no pull has brought the server's copy yet (another tab that led a moment ago may have
 * pushed it after this run's pulls). The pulls of the next run bring the latter, so a record is
 * queued again only when two runs in a row find it: the first notes it (`_sync_meta`), the second
 * queues it. Sending a create again whose POST did land would overwrite an edit another device
 * made since; sending one again that the server never had loses nothing and doubles nothing.
 */
export async function checkOrphanedCreates(db: MirrorDb, collections: readonly CollectionName[], now: number): Promise<OrphanedCreate[]> {
  const found = await findUnsentCreates(db, collections);
  const noted = await readSuspects(db);
  const checked = new Set<string>(collections);
  const requeued = await requeueCreates(db, found.filter((r) => noted.has(keyOf(r))), now);
  const gone = new Set(requeued.map(keyOf));
  // Suspects of collections this run did not check wait for a run that does.
  const suspects = [...[...noted].filter((k) => !checked.has(k.slice(0, k.indexOf(':')))), ...found.map(keyOf).filter((k) => !gone.has(k))].sort();
  if (suspects.join() !== [...noted].sort().join()) await db._sync_meta.put({ key: META_KEYS.orphanSuspects, value: suspects });
  return requeued;
}

function keyOf(ref: RecordRef): string {
  return `${ref.collection}:${ref.id}`;
}

async function readSuspects(db: MirrorDb): Promise<Set<string>> {
  const value = (await db._sync_meta.get(META_KEYS.orphanSuspects))?.value;
  return new Set(Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : []);
}
