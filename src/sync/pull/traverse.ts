import type { CollectionName } from '../../schema/collections.js';
import { COLLECTION_INFO } from '../../schema/index.js';
import type { PageLike, SyncClient, TraversalQuery } from '../sync-client.js';

/**
 * Walks every page of a forward traversal, fetching the next page while the current one is
 * being written (one page ahead, never more: pages are not accumulated in memory). `onPage`
 * runs strictly in order; if it throws, or `signal` aborts, the read-ahead is cancelled and the
 * error propagates.
 */
export async function traverse(
  client: SyncClient,
  collection: CollectionName,
  query: Omit<TraversalQuery, 'signal'>,
  signal: AbortSignal | undefined,
  onPage: (page: PageLike) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  const iterator = client.pages(collection, { ...query, signal: controller.signal })[Symbol.asyncIterator]();
  let next = iterator.next();
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
    controller.abort(error);
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
