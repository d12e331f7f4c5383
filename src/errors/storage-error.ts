import { PosCloudError, type PosCloudErrorOptions, type PosCloudErrorCode } from './pos-cloud-error.js';

/** What went wrong with a durable store (see {@link StorageError}). */
export type StorageProblem =
  /** The directory or a file in it cannot be created, read or written (permissions, a file in the way, a full disk). */
  | 'unwritable'
  /** Another process holds the data directory, and waiting for it was given up. */
  | 'locked'
  /** A file of the store is damaged: it is left as it is, for a person to look at. */
  | 'corrupt'
  /** The store was written by a newer version of this library (a later database schema). */
  | 'newer-version'
  /**
   * The connection to the browser's IndexedDB was lost under the page (WebKit's storage process
   * died): the mirror opens the database again; the operation that met the loss did not complete.
   */
  | 'connection-lost';

/** Options of {@link StorageError}. */
export interface StorageErrorOptions extends PosCloudErrorOptions {
  /** The file or directory concerned (for IndexedDB, the database's name). */
  path: string;
  problem: StorageProblem;
}

/**
 * A durable store (the Node file storage, or the browser's IndexedDB) cannot be used as it stands.
 * The message names the path (or database) and what is wrong; nothing of the store is overwritten
 * when this is thrown.
 */
export class StorageError extends PosCloudError {
  override name = 'StorageError';
  override readonly code: PosCloudErrorCode = 'storage';
  /** The file or directory concerned (for IndexedDB, the database's name). */
  readonly path: string;
  readonly problem: StorageProblem;

  constructor(message: string, options: StorageErrorOptions) {
    super(message, options);
    this.path = options.path;
    this.problem = options.problem;
  }
}

/** True for a {@link StorageError}. */
export function isStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError;
}
