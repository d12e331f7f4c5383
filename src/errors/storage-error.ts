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
  /** The record an edit that failed was for, when it has one (`connection-lost`). */
  id?: string;
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
  /**
   * The record the failed edit was for (`connection-lost` on `save` or `remove`): the id given, or
   * the one minted for a create when the edit got as far as minting it (`undefined` for a create
   * that met the loss sooner). A create is not stored under it (the mirror looked once the
   * database was open again), so making it again makes one record, not two.
   */
  readonly id?: string;

  constructor(message: string, options: StorageErrorOptions) {
    super(message, options);
    this.path = options.path;
    this.problem = options.problem;
    if (options.id !== undefined) this.id = options.id;
  }
}

/** True for a {@link StorageError}. */
export function isStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError;
}
