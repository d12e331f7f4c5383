/**
 * `pos-cloud-mirror/node`: what a mirror needs in Node beyond the main entry. A durable store
 * (`openFileStorage`) for background jobs that must survive a restart or a killed process.
 * Node only: the main entry never imports it.
 */
export { openFileStorage, type FileStorage, type FileStorageOptions } from './file-storage.js';
export { StorageError, isStorageError, type StorageProblem } from '../errors/index.js';
export type { MirrorStorage } from '../db/mirror-database.js';
