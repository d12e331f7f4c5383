import { Dexie, type Transaction } from 'dexie';
import { META_KEYS } from '../../db/meta-keys.js';
import type { MirrorDb } from '../../db/mirror-db.js';

/**
 * The `_sync_meta` row a tab that does not push itself touches after a local edit: the leader's
 * live query of the outbox counts reads it, so it hears of an edit another tab folded into an
 * entry already pending (which leaves the counts as they were).
 */
export const OUTBOX_TOUCHED = META_KEYS.outboxTouched;

/**
 * Tells the leading tab that the outbox grew, by touching the {@link OUTBOX_TOUCHED} row (a
 * failure only delays the push to the next poll). An edit the app saved inside a transaction of
 * its own (a record with its children) is announced once that transaction has committed, in a transaction of its own: inside the app's, the write
 * would fail when the app left `_sync_meta` out of it, and before it commits the leader would read
 * an outbox without the edit.
 */
export function announceOutboxGrew(db: MirrorDb, now: number): void {
  const touch = () => void db._sync_meta.put({ key: OUTBOX_TOUCHED, value: `${now}-${Math.random()}` }).catch(() => undefined);
  // Null outside a transaction, whatever Dexie's type says.
  const outer = Dexie.currentTransaction as Transaction | null;
  if (outer) outer.on('complete', () => Dexie.ignoreTransaction(touch));
  else touch();
}
