import type { MirrorDb } from '../db/mirror-db.js';

/**
 * The `_sync_meta` row a tab that does not push itself touches after a local edit: the leader's
 * live query of the outbox counts reads it, so it hears of an edit another tab folded into an
 * entry already pending (which leaves the counts as they were).
 */
export const OUTBOX_TOUCHED = 'outbox-touched';

/** Touches the {@link OUTBOX_TOUCHED} row (a failure only delays the push to the next poll). */
export function touchOutbox(db: MirrorDb, now: number): void {
  void db._sync_meta.put({ key: OUTBOX_TOUCHED, value: `${now}-${Math.random()}` }).catch(() => undefined);
}
