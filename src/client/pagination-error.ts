import { PosCloudError, type PosCloudErrorCode, type PosCloudErrorOptions } from '../errors/index.js';
import type { Id } from '../ids/id.js';

/**
 * The server's pages stopped making sense for a traversal: the same page came back twice, the
 * cursor did not move in the traversal's direction, or a full page carried no id to continue from.
 * Thrown instead of looping forever; the traversal can be resumed from `cursor` later.
 */
export class PaginationError extends PosCloudError {
  override name = 'PaginationError';
  override readonly code: PosCloudErrorCode = 'pagination';
  /** The collection being traversed. */
  readonly collection: string;
  /** The last cursor that was known good (the `id_start` of the failing page). */
  readonly cursor: Id | undefined;

  constructor(message: string, options: PosCloudErrorOptions & { collection: string; cursor: Id | undefined }) {
    super(message, options);
    this.collection = options.collection;
    this.cursor = options.cursor;
  }
}

/** True for a {@link PaginationError}. */
export function isPaginationError(error: unknown): error is PaginationError {
  return error instanceof PaginationError;
}
