/**
 * What the examples use of pos-cloud-mirror, in one place. An app of your own imports the same
 * names from `'pos-cloud-mirror'`; the examples import the sources so that they run from a
 * checkout without a build.
 */
export { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
export { ObservableValue } from '../../src/mirror/observable-value.js';
export { createClient, type Client } from '../../src/client/index.js';
export type { SyncStatus, SyncProgress, SyncPhase } from '../../src/mirror/status.js';
export type { StrandedCopy, TakeOverReport } from '../../src/index.js';
export type { StoredRecord, ConflictRow, OutboxEntry } from '../../src/db/sync-rows.js';
export type { SyncClient } from '../../src/sync/sync-client.js';
export type { Id } from '../../src/ids/id.js';
export { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
export { isLive } from '../../src/mirror/queries.js';
export { formatMoney } from '../../src/schema/money.js';
export { toIntlLocale } from '../../src/schema/intl-locale.js';
export { PosCloudError, ValidationError, AuthError, StorageError, isValidationError, type ValidationIssue } from '../../src/errors/index.js';
