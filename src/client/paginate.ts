import { HttpError } from '../errors/index.js';
import { compareIds, type Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { Direction, ResolvedListQuery } from './list-query.js';
import { createPageSizer } from './page-sizer.js';
import { PaginationError } from './pagination-error.js';
import type { RecordPage } from './record-page.js';

/** Fetches one page; `shrinkable` asks it to give up at once on a size failure instead of retrying. */
export type FetchPage<T> = (query: ResolvedListQuery, shrinkable: boolean) => Promise<RecordPage<T>>;

/** Settings of {@link paginate}. */
export interface PaginateOptions<T> {
  /** Response byte cap of the collection (orders), which turns on page shrinking. */
  maxBytes: number | undefined;
  /** Told about every page before it is yielded: persist `page.cursor` here to resume later. */
  onPage?: ((page: RecordPage<T>) => void) | undefined;
}

/** Statuses a too-big orders page fails with (spec: 6 MB response cap; the failure status is not shown). */
const SIZE_FAILURES: ReadonlySet<number> = new Set([500, 413]);

/**
 * Walks a collection page by page (spec: Pagination rules 2–4): the same `direction` throughout,
 * each page starting at the previous page's cursor, ending on a short page. Guards against a
 * server that makes no progress: a cursor that does not move in the traversal's direction throws
 * a {@link PaginationError} instead of looping. With a byte cap (orders), a page the server fails
 * on is retried at half the limit, and the limit grows back afterwards.
 */
export async function* paginate<T>(
  collection: CollectionName,
  query: ResolvedListQuery,
  fetchPage: FetchPage<T>,
  options: PaginateOptions<T>,
): AsyncGenerator<RecordPage<T>, void, undefined> {
  const sizer = createPageSizer({ target: query.limit, maxBytes: options.maxBytes });
  let cursor = query.idStart;
  for (;;) {
    const limit = sizer.limit;
    const shrinkable = options.maxBytes !== undefined && limit > 1;
    let page: RecordPage<T>;
    try {
      page = await fetchPage({ ...query, limit, idStart: cursor }, shrinkable);
    } catch (error) {
      if (shrinkable && error instanceof HttpError && error.constructor === HttpError && SIZE_FAILURES.has(error.status) && sizer.shrink()) continue;
      throw error;
    }
    sizer.observe(page.bytes, page.rawCount);

    const fresh = page.length + page.rejected.length;
    if (!page.done && fresh === 0 && limit === 1 && cursor !== undefined && page.cursor === cursor) {
      // A server that repeats the id_start record cannot move on with limit 1: ask for 2 from now on.
      sizer.raiseFloor(2);
      continue;
    }
    if (!page.done && page.cursor === undefined) {
      throw new PaginationError(`${collection}: a full page of ${page.rawCount} records carries no readable id to continue from`, { collection, cursor });
    }
    const moved = page.cursor === undefined || cursor === undefined || cursor === '0' || isAhead(page.cursor, cursor, query.direction);
    // A last page that only repeats the id_start record is the normal end on such servers.
    if ((fresh > 0 || !page.done) && !moved) {
      throw new PaginationError(
        `${collection}: the server made no progress: after id_start ${cursor} (${query.direction}) it answered a page ending at ${page.cursor}`,
        { collection, cursor },
      );
    }
    options.onPage?.(page);
    yield page;
    if (page.done) return;
    cursor = page.cursor;
  }
}

/** True when `next` lies beyond `previous` in the traversal's direction. */
export function isAhead(next: Id, previous: Id, direction: Direction): boolean {
  const order = compareIds(next, previous);
  return direction === 'forward' ? order > 0 : order < 0;
}
