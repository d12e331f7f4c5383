/**
 * The spec's pagination: `limit` 1..400 (orders: default 250, up to 2000), `id_start` (a string id;
 * 0 = from the start), `direction` (`backward` by default for orders, transactions and shifts,
 * `forward` otherwise: the simulator's choice where the spec is silent), `version_start`
 * (`_v` >= value); limits and default directions are read from the schema layer's `COLLECTION_INFO`.
 * A page starts with a binary search on the sorted ids and then walks, so a full traversal is O(n);
 * with `version_start` the walk skips non-matching records until `limit` match.
 */
import { COLLECTION_INFO } from '../../schema/collection-info.js';
import type { CollectionName } from '../../schema/collections.js';
import type { CollectionStore } from '../collection-store.js';
import { parseIdText } from '../id-index.js';
import type { SimRecord } from '../record.js';
import { errorReply, type Reply } from './respond.js';

/** A parsed page request. */
export interface PageQuery {
  limit: number;
  /** 0n: start from the beginning in the chosen direction. */
  idStart: bigint;
  direction: 'forward' | 'backward';
  versionStart: number;
}

const DIGITS = /^[0-9]+$/;

/** Reads the query string; out-of-range or malformed values get a 400 naming the parameter. */
export function parsePageQuery(collection: CollectionName, params: URLSearchParams): PageQuery | Reply {
  const { defaultLimit, maxLimit, defaultDirection } = COLLECTION_INFO[collection];
  const rawLimit = params.get('limit');
  let limit = defaultLimit;
  if (rawLimit !== null) {
    limit = DIGITS.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= maxLimit)) {
      return errorReply(400, 'invalid_limit', `limit must be an integer from 1 to ${maxLimit} for ${collection}, got ${JSON.stringify(rawLimit)}`);
    }
  }
  const rawStart = params.get('id_start');
  let idStart = 0n;
  if (rawStart !== null) {
    const id = parseIdText(rawStart);
    if (id === undefined) {
      return errorReply(400, 'invalid_id_start', `id_start must be a record id or 0, got ${JSON.stringify(rawStart.slice(0, 40))}`);
    }
    idStart = BigInt(id);
  }
  const rawDirection = params.get('direction');
  const direction = rawDirection ?? defaultDirection;
  if (direction !== 'forward' && direction !== 'backward') {
    return errorReply(400, 'invalid_direction', `direction must be "forward" or "backward", got ${JSON.stringify(direction.slice(0, 40))}`);
  }
  const rawVersion = params.get('version_start');
  let versionStart = 0;
  if (rawVersion !== null) {
    versionStart = DIGITS.test(rawVersion) ? Number(rawVersion) : NaN;
    if (!Number.isSafeInteger(versionStart)) {
      return errorReply(400, 'invalid_version_start', `version_start must be a non-negative integer (ms), got ${JSON.stringify(rawVersion.slice(0, 40))}`);
    }
  }
  return { limit, idStart, direction, versionStart };
}

/**
 * The records of one page. The record named by `id_start` is excluded (the next page continues
 * after it) unless `inclusive` (the gap switch), which repeats it at the head of the next page.
 */
export function selectPage(store: CollectionStore, q: PageQuery, inclusive: boolean): SimRecord[] {
  const ids = store.ids;
  const forward = q.direction === 'forward';
  let pos: number;
  if (q.idStart === 0n) pos = forward ? 0 : ids.length - 1;
  else if (forward) pos = inclusive ? ids.lowerBound(q.idStart) : ids.upperBound(q.idStart);
  else pos = (inclusive ? ids.upperBound(q.idStart) : ids.lowerBound(q.idStart)) - 1;
  const step = forward ? 1 : -1;
  const out: SimRecord[] = [];
  for (; pos >= 0 && pos < ids.length && out.length < q.limit; pos += step) {
    if (q.versionStart === 0 || ids.versionAt(pos) >= q.versionStart) out.push(store.recordAt(pos));
  }
  return out;
}
