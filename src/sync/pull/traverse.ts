import type { CollectionName } from '../../schema/collections.js';
import { COLLECTION_INFO } from '../../schema/index.js';
import type { PageLike, SyncClient, TraversalQuery } from '../sync-client.js';

/**
 * A forward traversal whose first page is requested (and, once it arrives, read through the
 * schema) as soon as it is opened, before anyone walks it: see {@link openTraversal}.
 */
export interface OpenTraversal {
  readonly collection: CollectionName;
  /** Ends the traversal's requests (a read-ahead nobody walks, or a walk that stopped). */
  cancel(reason?: unknown): Promise<void>;
  /** The client's pages. */
  readonly iterator: AsyncIterator<PageLike>;
  /** Ends the client's requests. */
  readonly controller: AbortController;
  /** The first page, requested when the traversal was opened. */
  readonly first: Promise<IteratorResult<PageLike>>;
}

/** Requests the first page of a traversal of `collection` now; walk it with {@link traverse}, or {@link OpenTraversal.cancel} it. */
export function openTraversal(client: SyncClient, collection: CollectionName, query: Omit<TraversalQuery, 'signal'>): OpenTraversal {
  const controller = new AbortController();
  const iterator = client.pages(collection, { ...query, signal: controller.signal })[Symbol.asyncIterator]();
  const first = iterator.next();
  // A read-ahead may fail before anyone walks it; its error is raised when it is awaited.
  first.catch(() => undefined);
  return {
    collection,
    iterator,
    controller,
    first,
    async cancel(reason?: unknown) {
      controller.abort(reason ?? new DOMException('the traversal was cancelled', 'AbortError'));
      await iterator.return?.().catch(() => undefined);
    },
  };
}

/**
 * Walks every page of a forward traversal, fetching the next page while the current one is
 * being written (one page ahead, never more: pages are not accumulated in memory). `onPage`
 * runs strictly in order; if it throws, or `signal` aborts, the read-ahead is cancelled and the
 * error propagates. `traversal` is a query (opened here) or a traversal opened ahead.
 */
export async function traverse(
  client: SyncClient,
  collection: CollectionName,
  traversal: Omit<TraversalQuery, 'signal'> | OpenTraversal,
  signal: AbortSignal | undefined,
  onPage: (page: PageLike) => Promise<void>,
): Promise<void> {
  const opened = 'iterator' in traversal ? traversal : openTraversal(client, collection, traversal);
  const forward = () => opened.controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  const { iterator } = opened;
  let next = opened.first;
  try {
    for (;;) {
      const step = await next;
      if (step.done) return;
      const page = step.value;
      next = page.done ? Promise.resolve({ done: true, value: undefined }) : iterator.next();
      // The read-ahead may fail while this page is written; its error is raised when it is awaited.
      next.catch(() => undefined);
      await onPage(page);
    }
  } catch (error) {
    opened.controller.abort(error);
    next.catch(() => undefined);
    await iterator.return?.().catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * The page limit a traversal of `collection` asks for: `requested`, clamped to the collection's
 * `maxLimit` (the client refuses a larger `limit` rather than shrink it).
 */
export function pageLimitFor(collection: CollectionName, requested: number): number {
  return Math.min(requested, COLLECTION_INFO[collection].maxLimit);
}
