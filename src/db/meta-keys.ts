/**
 * Every key of `_sync_meta`, the table of the sync's small facts, in one place: each feature owns
 * its keys, and no two features can pick the same one. A key is part of the stored format: an
 * existing one is never renamed.
 */
export const META_KEYS = {
  /** The leader's lease, where Web Locks are missing: who holds it and until when. */
  lease: 'leader',
  /** The latest creates moved to a fresh id because their id was taken (`status.movedCreates`). */
  movedCreates: 'moved-creates',
  /** The local creates found with no outbox entry and queued again (`status.orphanedCreates`). */
  orphanedCreates: 'orphaned-creates',
  /** Local creates with no outbox entry seen by the last check, which the next one queues again if it still finds them. */
  orphanSuspects: 'orphan-suspects',
  /** Touched by a tab that does not push itself after a local edit, so the leader hears of it. */
  outboxTouched: 'outbox-touched',
  /** The collections the server lacks, by name. */
  unavailableCollections: 'unavailable-collections',
  /** Prefix of the keys of the entries taken from another copy: `taken-over:<dbName>` ({@link takenOverKey}). */
  takenOverPrefix: 'taken-over:',
} as const;

/** The `_sync_meta` key of the entries this mirror took from the copy `dbName`. */
export function takenOverKey(dbName: string): string {
  return `${META_KEYS.takenOverPrefix}${dbName}`;
}
