import type { CollectionName } from '../../schema/collections.js';
import { COLLECTION_INFO } from '../../schema/index.js';
import type { PageLike, SyncClient, TraversalQuery } from '../sync-client.js';

/**
 * A traversal (either direction) whose first page is requested (and, once it arrives, read through the
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
 * Walks every page of a traversal (either direction), fetching the next page while the current one is
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
  await traverseInGroups(client, collection, traversal, signal, 1, (pages) => onPage(pages[0]!));
}

/**
 * Walks every page of a traversal as {@link traverse} does, but hands `onPages` every page
 * that arrived while the previous call ran, in order, up to `pagesPerCall` at a time (at least
 * one: it never waits for more than the next page). `onPages` may end the walk early by resolving
 * with `'stop'` (a backward traversal that reached its edge): the requests ahead are cancelled and
 * the walk resolves. Pages keep being fetched while `onPages`
 * runs, until `pagesPerCall` wait: so at most twice `pagesPerCall` pages are in memory, and when
 * the network is slower than the writes, each call gets one page as soon as it comes. A request
 * that fails is raised once the pages that came before it were handed on. If `onPages` throws,
 * or `signal` aborts, the requests are cancelled and the error propagates.
 */
export async function traverseInGroups(
  client: SyncClient,
  collection: CollectionName,
  traversal: Omit<TraversalQuery, 'signal'> | OpenTraversal,
  signal: AbortSignal | undefined,
  pagesPerCall: number,
  onPages: (pages: PageLike[]) => Promise<void> | Promise<'stop' | undefined>,
): Promise<void> {
  const opened = 'iterator' in traversal ? traversal : openTraversal(client, collection, traversal);
  const forward = () => opened.controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  const { iterator } = opened;
  const arrived = createPageQueue(pagesPerCall);
  // The requests run on their own, one after the other, while pages are handed on: the next is
  // asked only once there is room for it.
  const fetching = (async () => {
    let next = opened.first;
    for (;;) {
      const step = await next;
      if (step.done) return;
      arrived.push(step.value);
      if (step.value.done || !(await arrived.room())) return;
      next = iterator.next();
    }
  })().then(
    () => arrived.end(),
    (error: unknown) => arrived.fail(error),
  );
  try {
    for (;;) {
      const pages = await arrived.take();
      if (pages.length === 0) return;
      // Pages that came before an abort are not written after it.
      if (opened.controller.signal.aborted) throw opened.controller.signal.reason;
      if ((await onPages(pages)) === 'stop') {
        arrived.stop();
        opened.controller.abort(new DOMException('the traversal reached its edge', 'AbortError'));
        await fetching;
        await iterator.return?.().catch(() => undefined);
        return;
      }
    }
  } catch (error) {
    arrived.stop();
    opened.controller.abort(error);
    await fetching;
    await iterator.return?.().catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/** Pages fetched and not yet handed on, at most `capacity`; see {@link traverseInGroups}. */
interface PageQueue {
  push(page: PageLike): void;
  /** Waits until fewer than `capacity` pages wait; false once the walk stopped. */
  room(): Promise<boolean>;
  /**
   * Every page that is waiting, up to `capacity`, once one is; none once the traversal ended. A
   * failed request's error is raised once the pages before it were taken.
   */
  take(): Promise<PageLike[]>;
  /** No more pages will come. */
  end(): void;
  /** The next request failed with `error`. */
  fail(error: unknown): void;
  /** The walk stopped: a wait for room ends. */
  stop(): void;
}

function createPageQueue(capacity: number): PageQueue {
  const pages: PageLike[] = [];
  let ended = false;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  let wakeTaker: (() => void) | undefined;
  let wakeFetcher: (() => void) | undefined;
  const wakeTheTaker = () => {
    wakeTaker?.();
    wakeTaker = undefined;
  };
  const wakeTheFetcher = () => {
    wakeFetcher?.();
    wakeFetcher = undefined;
  };
  return {
    push(page) {
      pages.push(page);
      wakeTheTaker();
    },
    async room() {
      while (pages.length >= capacity && !stopped) await new Promise<void>((resolve) => (wakeFetcher = resolve));
      return !stopped;
    },
    async take() {
      while (pages.length === 0 && !ended && !failure) await new Promise<void>((resolve) => (wakeTaker = resolve));
      if (pages.length > 0) {
        const taken = pages.splice(0, capacity);
        wakeTheFetcher();
        return taken;
      }
      if (failure) throw failure.error;
      return [];
    },
    end() {
      ended = true;
      wakeTheTaker();
    },
    fail(error) {
      failure = { error };
      wakeTheTaker();
    },
    stop() {
      stopped = true;
      wakeTheFetcher();
    },
  };
}

/**
 * The page limit a traversal of `collection` asks for: `requested`, clamped to the collection's
 * `maxLimit` (the client refuses a larger `limit` rather than shrink it).
 */
export function pageLimitFor(collection: CollectionName, requested: number): number {
  return Math.min(requested, COLLECTION_INFO[collection].maxLimit);
}
