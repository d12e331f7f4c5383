import type { Id } from '../ids/id.js';
import type { ValidationIssue } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import type { StoredRecord } from '../db/sync-rows.js';

/** A record the client refused (failed its read schema), as the sync layer sees it. */
export interface RejectedLike {
  index: number;
  raw: unknown;
  issues: ValidationIssue[];
}

/** One page of a traversal, as the sync layer needs it from the client. */
export type PageLike = StoredRecord[] & {
  rejected: RejectedLike[];
  cursor: Id | undefined;
  serverTime: number | undefined;
  done: boolean;
};

/** Query of a traversal. */
export interface TraversalQuery {
  direction: 'forward' | 'backward';
  versionStart?: number;
  idStart?: Id;
  limit?: number;
  signal?: AbortSignal;
}

/**
 * The part of the REST client the sync engine uses. `createClient` satisfies it; tests and
 * relays may pass anything shaped like it.
 */
export interface SyncClient {
  /** Every page of a traversal of `collection`, one after the other. */
  pages(collection: CollectionName, query: TraversalQuery): AsyncIterable<PageLike>;
  /** One page of a traversal of `collection`. */
  list(collection: CollectionName, query: TraversalQuery): Promise<PageLike>;
  /** The category tree; `rejected` holds the roots the read schema refused. */
  categories(options?: { signal?: AbortSignal }): Promise<unknown[] & { rejected?: RejectedLike[] }>;
  /** The latest orders of a register; `rejected` holds the orders the read schema refused. */
  latestOrders(idCashRegister: Id, query?: { idPayment?: number; signal?: AbortSignal }): Promise<StoredRecord[] & { rejected?: RejectedLike[] }>;
  /** POSTs one record or a batch of records of `collection`; `readResponse: false` skips reading the answer's body. */
  save(
    collection: CollectionName,
    body: Record<string, unknown> | readonly Record<string, unknown>[],
    options?: { signal?: AbortSignal; readResponse?: boolean },
  ): Promise<unknown>;
  /** Replaces the API token of the requests that follow. */
  setToken?(token: string): void;
}
