import type { ExtraIndexes } from '../db/stores.js';
import { formatIssues, ValidationError, type ValidationIssue } from '../errors/index.js';
import { COLLECTIONS, isCollectionName, type CollectionName } from '../schema/collections.js';
import { isConflictStrategy } from '../sync/conflict-strategy.js';
import type { SyncEnvironment } from '../sync/environment.js';
import { DEFAULT_LEASE_MS } from '../sync/leader.js';
import { BATCH_DEFAULTS } from '../sync/push-batches.js';
import type { SyncClient } from '../sync/sync-client.js';
import type { ConflictOption } from '../sync/push.js';

/** Options of `createMirror`. Every default is in {@link MIRROR_DEFAULTS}. */
export interface MirrorOptions {
  /** A client made with `createClient`; or give `baseUrl`, `token` and `userAgent`. With a client, give `baseUrl` or `dbName` too. */
  client?: SyncClient;
  baseUrl?: string;
  token?: string;
  userAgent?: string;
  /** Database name. @default one per base URL (and `tenant`): `pos-cloud-mirror:<origin><path>` */
  dbName?: string;
  /** Tenant (`id_c`) to keep apart in its own database when one base URL serves several. */
  tenant?: string;
  /** IndexedDB to use. @default globalThis.indexedDB, else fake-indexeddb (Node) */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** Collections to mirror. @default all 14 */
  collections?: CollectionName[];
  /** Also mirror the category tree. @default true */
  categories?: boolean;
  /** Delay between delta syncs (ms). @default 30_000 */
  pollIntervalMs?: number;
  /** Conflict strategy. @default 'merge' */
  conflict?: ConflictOption;
  /** Records per page when pulling. @default 400 */
  pageLimit?: number;
  /** Safety margin of the checkpoint rule (ms). @default 60_000 */
  skewMarginMs?: number;
  /** How often a reconcile sweep runs (ms); 0 turns it off (`reconcile()` still works). @default 86_400_000 */
  reconcileIntervalMs?: number;
  /** Extra IndexedDB indexes per collection, in Dexie syntax. */
  indexes?: ExtraIndexes;
  /** Limits of one push POST. @default { maxRecords: 100, maxBytes: 524_288 } */
  batch?: { maxRecords?: number; maxBytes?: number };
  /** Lease of the leader where Web Locks are missing: a follower takes over this long after the leader stopped renewing (ms). @default 10_000 */
  leaderLeaseMs?: number;
  /** Replaces timers, connectivity, visibility and locks (tests). */
  environment?: Partial<SyncEnvironment>;
}

/** Defaults of {@link MirrorOptions} (and of `watchLatestOrders`' `intervalMs`), in one place. */
export const MIRROR_DEFAULTS = {
  pollIntervalMs: 30_000,
  pageLimit: 400,
  skewMarginMs: 60_000,
  reconcileIntervalMs: 86_400_000,
  conflict: 'merge',
  categories: true,
  batch: BATCH_DEFAULTS,
  leaderLeaseMs: DEFAULT_LEASE_MS,
  /** Delay between two polls of `watchLatestOrders` (ms). */
  latestOrdersIntervalMs: 5_000,
} as const;

/** Checks the options once, at creation, and names every bad one. */
export function validateMirrorOptions(options: MirrorOptions): void {
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ path: [field], message });
  if (options.client && !options.baseUrl && !options.dbName) {
    // The database is named after the service: without either, two services would share one.
    bad('dbName', 'required with a client when no baseUrl is given (one database per service and tenant)');
  }
  if (!options.client) {
    if (!options.baseUrl) bad('baseUrl', 'required when no client is given');
    if (!options.token) bad('token', 'required when no client is given');
    if (!options.userAgent) bad('userAgent', 'required when no client is given');
  }
  if (options.collections !== undefined) {
    if (!Array.isArray(options.collections)) bad('collections', 'must be an array of collection names');
    else
      options.collections.forEach((c, i) => {
        if (!isCollectionName(c)) issues.push({ path: ['collections', i], message: `unknown collection ${JSON.stringify(c)}; known: ${COLLECTIONS.join(', ')}` });
      });
  }
  for (const field of ['pollIntervalMs', 'pageLimit', 'skewMarginMs', 'reconcileIntervalMs', 'leaderLeaseMs'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) bad(field, 'must be a non-negative number');
  }
  if (options.pageLimit !== undefined && (options.pageLimit < 1 || !Number.isInteger(options.pageLimit))) bad('pageLimit', 'must be an integer of at least 1');
  const conflict = options.conflict;
  if (conflict !== undefined && !isConflictStrategy(conflict)) {
    bad('conflict', "must be 'merge', 'server-wins', 'client-wins' or a resolver function");
  }
  if (issues.length > 0) {
    // Every issue has a path, and all of them are named (no "and N more").
    throw new ValidationError(`createMirror: bad options: ${formatIssues(issues, Infinity)}`, { issues });
  }
}
