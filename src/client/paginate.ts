import { compareIds, type Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { Direction, ResolvedListQuery } from './list-query.js';
import { createPageSizer, isSizeFailure } from './page-sizer.js';
import { PaginationError } from './pagination-error.js';
import type { RawPage } from './raw-page.js';
import type { RecordPage } from './record-page.js';

/** How {@link paginate} reaches the network and the schema. */
export interface PageIo<T> {
  /**
   * Fetches one page as raw JSON. `shrinkable` asks it to give up at once on a size failure
   * instead of retrying; `signal` ends it when the traversal stops or the caller aborts.
   */
  fetchRaw(query: ResolvedListQuery, shrinkable: boolean, signal: AbortSignal): Promise<RawPage>;
  /** Reads a raw page through the schema (giving the event loop turns as it goes). */
  read(raw: RawPage): Promise<RecordPage<T>>;
}

/** Settings of {@link paginate}. */
export interface PaginateOptions<T> {
  /** Response byte cap of the collection (orders), which turns on page shrinking. */
  maxBytes: number | undefined;
  /** Told about every page before it is yielded: persist `page.cursor` here to resume later. */
  onPage?: ((page: RecordPage<T>) => void) | undefined;
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /**
   * Request the next page while this one is read through the schema (one request in flight at
   * most). Off for a single `list()`, which must not send a second request.
   */
  prefetch: boolean;
}

/**
 * Walks a collection page by page (spec: Pagination rules 2–4): the same `direction` throughout,
 * each page starting at the previous page's cursor, ending on a short page. Guards against a
 * server that makes no progress: a cursor that does not move in the traversal's direction throws
 * a {@link PaginationError} instead of looping. With a byte cap (orders), a page the server fails
 * on is retried at half the limit, and the limit grows back afterwards.
 *
 * With `prefetch`, page N+1 is requested as soon as page N's cursor is known, before page N is
 * validated, so schema work overlaps the network; a request nobody will read (the consumer
 * stopped early) is aborted.
 */
export async function* paginate<T>(
  collection: CollectionName,
  query: ResolvedListQuery,
  io: PageIo<T>,
  options: PaginateOptions<T>,
): AsyncGenerator<RecordPage<T>, void, undefined> {
  const sizer = createPageSizer({ target: query.limit, maxBytes: options.maxBytes });
  const stop = new AbortController();
  const outer = options.signal;
  const forwardAbort = (): void => stop.abort(outer?.reason);
  if (outer?.aborted) forwardAbort();
  else outer?.addEventListener('abort', forwardAbort, { once: true });

  const request = (limit: number, idStart: Id | undefined): { limit: number; raw: Promise<RawPage> } => {
    const raw = io.fetchRaw({ ...query, limit, idStart }, options.maxBytes !== undefined && limit > 1, stop.signal);
    raw.catch(() => undefined); // a prefetch may be abandoned; its failure is read when awaited
    return { limit, raw };
  };

  let cursor = query.idStart;
  let next: { limit: number; raw: Promise<RawPage> } | undefined;
  try {
    for (;;) {
      let current: { limit: number; raw: Promise<RawPage> } | undefined = next ?? request(sizer.limit, cursor);
      next = undefined;
      let raw: RawPage | undefined;
      try {
        raw = await current.raw;
      } catch (error) {
        if (isSizeFailure(error) && current.limit > 1 && sizer.shrink()) continue;
        throw error;
      }
      sizer.observe(raw.bytes, raw.values.length);

      if (!raw.done && raw.fresh === 0 && current.limit === 1 && cursor !== undefined && raw.cursor === cursor) {
        // A server that repeats the id_start record cannot move on with limit 1: ask for 2 from now on.
        sizer.raiseFloor(2);
        continue;
      }
      if (!raw.done && raw.cursor === undefined) {
        throw new PaginationError(`${collection}: a full page of ${raw.values.length} records carries no readable id to continue from`, { collection, cursor });
      }
      const moved = raw.cursor === undefined || cursor === undefined || cursor === '0' || isAhead(raw.cursor, cursor, query.direction);
      // A last page that only repeats the id_start record is the normal end on such servers.
      if ((raw.fresh > 0 || !raw.done) && !moved) {
        throw new PaginationError(
          `${collection}: the server made no progress: after id_start ${cursor} (${query.direction}) it answered a page ending at ${raw.cursor}`,
          { collection, cursor },
        );
      }

      if (options.prefetch && !raw.done) next = request(sizer.limit, raw.cursor);
      const page = await io.read(raw);
      // The raw records are garbage once read: let them go before the consumer takes its time
      // with the page (a generator keeps its locals alive while suspended at `yield`).
      raw = undefined;
      current = undefined;
      options.onPage?.(page);
      yield page;
      if (page.done) return;
      cursor = page.cursor;
    }
  } finally {
    outer?.removeEventListener('abort', forwardAbort);
    // Ends a prefetch nobody will read (consumer stopped, error); a no-op after the last page.
    if (!stop.signal.aborted) stop.abort(new DOMException('the traversal ended', 'AbortError'));
  }
}

/** True when `next` lies beyond `previous` in the traversal's direction. */
function isAhead(next: Id, previous: Id, direction: Direction): boolean {
  const order = compareIds(next, previous);
  return direction === 'forward' ? order > 0 : order < 0;
}
