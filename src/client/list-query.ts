import { formatIssues, ValidationError, type ValidationIssue } from '../errors/index.js';
import { tryToId, type Id } from '../ids/id.js';
import { isCollectionName, type CollectionName } from '../schema/collections.js';
import { COLLECTION_INFO } from '../schema/index.js';
import { isPositiveMs, POSITIVE_MS_MESSAGE } from '../schema/timer-limit.js';
import type { CallOptions } from './requester.js';

/** Traversal order (spec: Pagination): `forward` ascending by id (oldest first), `backward` newest first. */
export type Direction = 'forward' | 'backward';

/** Query of one list page (spec: Pagination). */
export interface ListQuery extends CallOptions {
  /**
   * Records per page, 1..`maxLimit` of the collection (400; orders 2000).
   * @default the collection's `defaultLimit` (100; orders 250)
   */
  limit?: number;
  /**
   * Order of traversal; always sent, because the spec does not show the server's default for most tables.
   * @default the collection's `defaultDirection` (`backward` for orders, transactions, shifts)
   */
  direction?: Direction;
  /** Continue after this record: the `cursor` of the previous page. Sent as a string. `"0"` = from the start. */
  idStart?: Id;
  /** Only records whose `_v` >= this (ms). */
  versionStart?: number;
}

/** A {@link ListQuery} checked and completed with the collection's defaults. */
export interface ResolvedListQuery {
  limit: number;
  direction: Direction;
  idStart: Id | undefined;
  versionStart: number | undefined;
}

/** Checks that `collection` is one of the 14 list collections, else a `ValidationError` naming it. */
export function assertCollection(collection: unknown, where: string): asserts collection is CollectionName {
  if (!isCollectionName(collection)) {
    const shown = typeof collection === 'string' ? JSON.stringify(collection.slice(0, 60)) : typeof collection;
    throw new ValidationError(`${where}: unknown collection ${shown}`, {
      issues: [{ path: ['collection'], message: 'expected one of the 14 collections of the service' }],
    });
  }
}

/**
 * Validates a list query against the collection's limits and fills in its defaults.
 * Every problem is reported at once in one `ValidationError`.
 */
export function resolveListQuery(collection: CollectionName, query: ListQuery, where: string): ResolvedListQuery {
  const info = COLLECTION_INFO[collection];
  const issues: ValidationIssue[] = [];
  const { limit = info.defaultLimit, direction = info.defaultDirection, versionStart } = query;
  if (!Number.isInteger(limit) || limit < 1 || limit > info.maxLimit) {
    issues.push({ path: ['limit'], message: `must be an integer from 1 to ${info.maxLimit} for ${collection}, got ${String(limit)}` });
  }
  if (!['forward', 'backward'].includes(direction)) {
    issues.push({ path: ['direction'], message: `must be 'forward' or 'backward', got ${JSON.stringify(direction)}` });
  }
  let idStart: Id | undefined;
  if (query.idStart !== undefined) {
    idStart = tryToId(query.idStart);
    if (idStart === undefined) issues.push({ path: ['idStart'], message: 'must be a record id: a decimal string of digits' });
  }
  if (versionStart !== undefined && (!Number.isSafeInteger(versionStart) || versionStart < 0)) {
    issues.push({ path: ['versionStart'], message: `must be an integer time in ms >= 0, got ${String(versionStart)}` });
  }
  if (query.timeoutMs !== undefined && !isPositiveMs(query.timeoutMs)) issues.push({ path: ['timeoutMs'], message: POSITIVE_MS_MESSAGE });
  if (issues.length > 0) {
    throw new ValidationError(`${where}: invalid list query for ${collection}: ${formatIssues(issues, { separator: ' ' })}`, { issues });
  }
  return { limit, direction, idStart, versionStart };
}

/** The query string of a list page: `limit` and `direction` always, `id_start` as a string, `version_start`. */
export function listSearchParams(query: ResolvedListQuery): Record<string, string> {
  const params: Record<string, string> = { limit: String(query.limit), direction: query.direction };
  if (query.idStart !== undefined) params.id_start = query.idStart;
  if (query.versionStart !== undefined) params.version_start = String(query.versionStart);
  return params;
}
