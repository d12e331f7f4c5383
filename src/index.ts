/**
 * pos-cloud-mirror: an offline-first mirror of a point-of-sale cloud service in IndexedDB.
 * Everything public is exported here by name; `pos-cloud-mirror/simulator` holds the simulator.
 */

// errors
export {
  PosCloudError,
  isPosCloudError,
  type PosCloudErrorCode,
  HttpError,
  isHttpError,
  AuthError,
  isAuthError,
  RateLimitError,
  isRateLimitError,
  InvalidCursorError,
  isInvalidCursorError,
  NetworkError,
  isNetworkError,
  TimeoutError,
  isTimeoutError,
  JsonParseError,
  isJsonParseError,
  ValidationError,
  isValidationError,
  StorageError,
  isStorageError,
  type StorageProblem,
  OutsideHistoryWindowError,
  isOutsideHistoryWindowError,
  type OutsideHistoryWindowErrorOptions,
  type RequestInfo,
  type ValidationIssue,
} from './errors/index.js';

// ids
export {
  type Id,
  isId,
  toId,
  tryToId,
  compareIds,
  TABLE_IDS,
  type TableName,
  generateId,
  decodeId,
  composeId,
  createIdGenerator,
  ID_EPOCH,
  type IdParts,
  type IdGenerator,
  type GenerateIdOptions,
} from './ids/index.js';

// json
export { parseJson, parseJsonBytes, stringifyJson } from './json/index.js';

// schema
export {
  COLLECTIONS,
  isCollectionName,
  type CollectionName,
  COLLECTION_INFO,
  type CollectionInfo,
  schemas,
  type SchemaName,
  parseRecord,
  type ParseRecordResult,
  validateWrite,
  type ValidateWriteOptions,
  idFieldsOf,
  categoryNodeSchema,
  warehouseStatusSchema,
  parseWarehouseStatus,
  warehouseStatusRowSchema,
  moneyToDecimalString,
  decimalToMoney,
  formatMoney,
  toIntlLocale,
  reductionPercentToPercent,
  percentToReductionPercent,
  toDate,
  fromDate,
  type RecordOf,
  type WriteInputOf,
  type WriteRecordOf,
  type KnownFields,
  type CreateInputOf,
  type PartialUpdateOf,
  type SaveInputOf,
  type NoExtraFields,
  type StoredRecordOf,
  type Product,
  type Customer,
  type PriceMatrixRow,
  type Shop,
  type CashRegister,
  type Employee,
  type ParkLocation,
  type Shift,
  type StockHistoryRow,
  type Stockup,
  type Transaction,
  type Warehouse,
  type Order,
  type OrderDetail,
  type CategoryNode,
  type WarehouseStatusRow,
  type WarehouseStatus,
} from './schema/index.js';

// client
export {
  createClient,
  CLIENT_DEFAULTS,
  PaginationError,
  isPaginationError,
  type Client,
  type ClientOptions,
  type RetryOptions,
  type RetryEvent,
  type RetryMethod,
  type ListQuery,
  type PagesQuery,
  type LatestOrdersQuery,
  type SaveOptions,
  type CallOptions,
  type Direction,
  type Page,
  type RecordPage,
  type RejectedRecord,
  type WarehouseStatusBody,
  type OrderHistoryBody,
} from './client/index.js';

// db
export { MirrorDb, type MirrorDbOptions } from './db/mirror-db.js';
export { SYNC_TABLES } from './db/table-names.js';
export { defaultDbName, parseDbName } from './db/db-name.js';
export { DEFAULT_INDEXES, type ExtraIndexes } from './db/stores.js';
export type {
  StoredRecord,
  CheckpointRow,
  TraversalCursor,
  QuarantineRow,
  OutboxEntry,
  OutboxOp,
  OutboxState,
  ConflictRow,
  MovedCreate,
  OrphanedCreate,
  OrphanedCreates,
} from './db/sync-rows.js';

// sync
export type { ConflictChoice, ConflictInfo, ConflictResolver, ConflictStrategy } from './sync/conflicts/index.js';
export { type ConflictOption, createPusher, type PushCounts, type Pusher, type PushReport } from './sync/push/index.js';
export { retryRejected } from './sync/outbox/index.js';
export type { CollectionProgress, PullReport, ReconcileReport } from './sync/pull/index.js';
export type { StorageManagerLike, SyncEnvironment } from './sync/coordination/index.js';
export type { SyncClient, PageLike, RejectedLike, TraversalQuery } from './sync/sync-client.js';

// mirror
export { ObservableValue, type Observable, type Observer, type Subscription, type ReadonlyObservableValue } from './mirror/observable-value.js';
export type { PendingEdit, Conflict, CollectionTables, MirrorDatabase } from './mirror/typed-rows.js';
export type { MirrorTransaction } from './mirror/mirror-transaction.js';
export type { RecordSyncState } from './mirror/record-sync-state.js';
export { createMirror, type Mirror } from './mirror/create-mirror.js';
export { MIRROR_DEFAULTS, type MirrorOptions } from './mirror/options.js';
export type { MirrorStorage } from './db/mirror-database.js';
export { isLive, type MirrorQueries, type OrdersOfRegisterOptions, type CategoryTreeNode } from './mirror/queries.js';
export type { SyncStatus, SyncPhase, SyncProgress, CollectionSyncProgress, StorageQuota } from './mirror/status.js';
export { DEFAULT_SYNC_GROUPS, WINDOWED_COLLECTIONS, type DefaultSyncGroupName, type HistoryWindow, type ProgressEstimate, type SyncGroup, type SyncGroupStatus, type SyncReport, type WindowedCollection } from './sync/cycle/index.js';
export type { LeftReason, StrandedCopy, TakeOverReport } from './sync/copies/index.js';
