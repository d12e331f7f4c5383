import type { QuarantineRow } from '../db/sync-rows.js';
import type { CollectionName } from '../schema/collections.js';
import type { RejectedLike } from './sync-client.js';

/**
 * Quarantine rows for server records the read schema refused (DESIGN.md decision 11): each is
 * kept exactly as received with the reasons, never applied, and never taken for a deletion.
 */
export function quarantineRows(collection: CollectionName | 'categories', rejected: readonly RejectedLike[], at: number): QuarantineRow[] {
  return rejected.map((r) => ({ collection, id: idOfRaw(r.raw), record: r.raw, issues: r.issues, at }));
}

/** The id of a record as received, as a string, when it has one that could be an id. */
export function idOfRaw(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : undefined;
}
