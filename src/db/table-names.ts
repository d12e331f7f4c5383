/**
 * Names of the tables that hold sync state. The `_sync_` prefix cannot clash with a
 * collection: the service's collection names never start with an underscore.
 */
export const SYNC_TABLES = {
  checkpoints: '_sync_checkpoints',
  quarantine: '_sync_quarantine',
  outbox: '_sync_outbox',
  conflicts: '_sync_conflicts',
  meta: '_sync_meta',
  inflight: '_sync_inflight',
} as const;
