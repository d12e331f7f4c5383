import { describeValue, ValidationError } from '../../errors/index.js';
import type { StoredRecord } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import type { Id } from '../../ids/id.js';

/** What a resolver is told about a conflict besides the three records. */
export interface ConflictInfo {
  collection: CollectionName;
  id: Id;
  /** Fields changed on both sides to different values; `['_d']` when one side deleted the record. */
  fields: string[];
}

/**
 * Decides a conflict: `'local'` keeps the app's values, `'server'` the server's, a record is the
 * one to keep (fields that differ from the server's go out), `null` leaves it unresolved (a
 * conflict row the UI resolves). Called during a push, inside a database transaction: it must
 * decide synchronously and must not touch the database.
 */
export type ConflictResolver = (
  local: StoredRecord,
  server: StoredRecord,
  base: StoredRecord | null,
  info: ConflictInfo,
) => StoredRecord | 'local' | 'server' | null;

/**
 * How a push settles a record that the server changed since the local edit was made on it
 * (docs/design.md, decision 7). Changes to different fields always merge; the strategy only decides
 * fields changed on both sides, and deletions against edits:
 * - `merge`: leaves them unresolved, as conflict rows;
 * - `server-wins`: the server's values (a deletion on either side against an edit: the server's record);
 * - `client-wins`: the app's values (a local edit of a record the server deleted restores it);
 * - a {@link ConflictResolver}.
 */
export type ConflictStrategy = 'merge' | 'server-wins' | 'client-wins' | ConflictResolver;

/** True when the strategy is one of the names, or a function. */
export function isConflictStrategy(value: unknown): value is ConflictStrategy {
  return value === 'merge' || value === 'server-wins' || value === 'client-wins' || typeof value === 'function';
}

/**
 * The choice a strategy makes for one conflict: the side that wins, a record, or `null`
 * (unresolved). A resolver that returns anything else is a bug in the app and throws.
 */
export function chooseSide(
  strategy: ConflictStrategy,
  local: StoredRecord,
  server: StoredRecord,
  base: StoredRecord | null,
  info: ConflictInfo,
): 'local' | 'server' | StoredRecord | null {
  if (strategy === 'merge') return null;
  if (strategy === 'server-wins') return 'server';
  if (strategy === 'client-wins') return 'local';
  const choice = strategy(local, server, base, info);
  if (choice === null || choice === 'local' || choice === 'server') return choice;
  if (typeof choice === 'object' && !Array.isArray(choice)) return choice;
  const message = `expected a record, 'local', 'server' or null, got ${describeValue(choice)}`;
  throw new ValidationError(`the conflict resolver returned a bad choice for ${info.collection} ${info.id}: ${message}`, {
    issues: [{ path: [info.collection, info.id], message }],
  });
}
