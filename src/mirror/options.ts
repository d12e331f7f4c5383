import type { ClientOptions } from '../client/index.js';
import type { ExtraIndexes } from '../db/stores.js';
import type { MirrorStorage } from './mirror-database.js';
import { formatIssues, ValidationError, type ValidationIssue } from '../errors/index.js';
import { DELAY_MS_MESSAGE, isDelayMs, isPositiveMs, POSITIVE_MS_MESSAGE } from '../client/client-options.js';
import { COLLECTIONS, isCollectionName, type CollectionName } from '../schema/collections.js';
import { DEFAULT_LEASE_MS, type SyncEnvironment } from '../sync/coordination/index.js';
import { PULL_DEFAULTS } from '../sync/pull/index.js';
import { BATCH_DEFAULTS, DEFAULT_CONFLICT, pushOptionIssues, type ConflictOption } from '../sync/push/index.js';
import type { SyncClient } from '../sync/index.js';

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
  /**
   * Where the database lives instead, with what it needs of it: in Node, `openFileStorage` of
   * `pos-cloud-mirror/node` keeps it in a data directory that survives restarts and crashes. The
   * mirror closes it in `close()`. Not with `indexedDB`.
   */
  storage?: MirrorStorage;
  /**
   * Collections to mirror. @default all 14
   *
   * A parent brings its hydration children: `products` also mirrors `product_price_matrix`, and
   * `orders` also mirrors `order_details`; each child is pulled, pushed and reconciled on its own
   * like any other collection. `save()` and `remove()` of a collection that is mirrored neither
   * way throw a `ValidationError`.
   */
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
  /** With no `client`: the `fetch` the client sends with (see `ClientOptions.fetch`). */
  fetch?: ClientOptions['fetch'];
  /** With no `client`: the time limit of one try, in ms (see `ClientOptions.timeoutMs`). */
  timeoutMs?: ClientOptions['timeoutMs'];
  /** With no `client`: the retry policy, ky's options (see `ClientOptions.retry`). */
  retry?: ClientOptions['retry'];
  /** With no `client`: send the user agent as `X-Client-User-Agent` too (see `ClientOptions.clientUserAgentHeader`). */
  clientUserAgentHeader?: ClientOptions['clientUserAgentHeader'];
  /** With no `client`: told before each retry (see `ClientOptions.onRetry`). */
  onRetry?: ClientOptions['onRetry'];
}

/** The options `createMirror` passes on to `createClient` when it makes the client itself. */
export const FORWARDED_CLIENT_OPTIONS = ['fetch', 'timeoutMs', 'retry', 'clientUserAgentHeader', 'onRetry'] as const;

/** Every option `createMirror` knows; any other key is refused (a misplaced option would be ignored silently). */
const MIRROR_OPTION_KEYS: ReadonlySet<string> = new Set([
  'client', 'baseUrl', 'token', 'userAgent', 'dbName', 'tenant', 'indexedDB', 'IDBKeyRange', 'storage', 'collections', 'categories',
  'pollIntervalMs', 'conflict', 'pageLimit', 'skewMarginMs', 'reconcileIntervalMs', 'indexes', 'batch', 'leaderLeaseMs',
  'environment', ...FORWARDED_CLIENT_OPTIONS,
] satisfies (keyof MirrorOptions)[]);

/** Defaults of {@link MirrorOptions} (and of `watchLatestOrders`' `intervalMs`), in one place. */
export const MIRROR_DEFAULTS = {
  pollIntervalMs: 30_000,
  pageLimit: PULL_DEFAULTS.pageLimit,
  skewMarginMs: PULL_DEFAULTS.skewMarginMs,
  reconcileIntervalMs: 86_400_000,
  conflict: DEFAULT_CONFLICT,
  categories: true,
  batch: BATCH_DEFAULTS,
  leaderLeaseMs: DEFAULT_LEASE_MS,
  /** Delay between two polls of `watchLatestOrders` (ms). */
  latestOrdersIntervalMs: 5_000,
} as const;

/**
 * Checks the options once, at creation, and names every bad one in a single `ValidationError`:
 * what the mirror itself uses (types, ranges, collection names, delays a timer can wait), and the
 * connection options as far as naming the database needs them. `createClient` then checks
 * `token` and `userAgent` further, and `createPusher` the `batch` limits with the same rules.
 */
export function validateMirrorOptions(options: MirrorOptions): void {
  // Callers from plain JavaScript can pass anything.
  const value: unknown = options;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('createMirror: options must be an object', { issues: [{ path: [], message: 'expected an object' }] });
  }
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ path: [field], message });
  const given = (value: unknown) => value !== undefined;
  checkKeys(options, bad);
  if (given(options.client) && !isClient(options.client)) bad('client', 'must be a client made with createClient');
  if (given(options.baseUrl) && !isHttpUrl(options.baseUrl)) bad('baseUrl', 'must be an http(s) URL');
  for (const field of ['token', 'userAgent', 'dbName', 'tenant'] as const) {
    const value = options[field];
    if (given(value) && (typeof value !== 'string' || value === '')) bad(field, 'must be a non-empty string');
  }
  if (options.client && !options.baseUrl && options.dbName === undefined) {
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
  if (given(options.categories) && typeof options.categories !== 'boolean') bad('categories', 'must be true or false');
  // A delay that ends up in a timer: 0 is allowed where it means "at once".
  if (given(options.pollIntervalMs) && !isDelayMs(options.pollIntervalMs)) bad('pollIntervalMs', DELAY_MS_MESSAGE);
  // Compared with the time since the last sweep, never a timer: any length (0 turns it off).
  const sweep = options.reconcileIntervalMs;
  if (given(sweep) && (typeof sweep !== 'number' || !Number.isFinite(sweep) || sweep < 0)) bad('reconcileIntervalMs', 'must be a finite number of ms >= 0');
  if (given(options.leaderLeaseMs) && !isPositiveMs(options.leaderLeaseMs)) bad('leaderLeaseMs', POSITIVE_MS_MESSAGE);
  const skew = options.skewMarginMs;
  if (given(skew) && (typeof skew !== 'number' || !Number.isFinite(skew) || skew < 0)) bad('skewMarginMs', 'must be a finite number of ms >= 0');
  const pageLimit = options.pageLimit;
  if (given(pageLimit) && (typeof pageLimit !== 'number' || !Number.isInteger(pageLimit) || pageLimit < 1)) {
    bad('pageLimit', "must be an integer of at least 1 (each collection's maximum applies)");
  }
  checkStorage(options, bad);
  issues.push(...pushOptionIssues(options.conflict, options.batch));
  checkIndexes(options.indexes, issues);
  const environment: unknown = options.environment;
  if (given(environment) && (typeof environment !== 'object' || environment === null)) bad('environment', 'must be an object');
  if (issues.length > 0) {
    // Every issue has a path, and all of them are named (no "and N more").
    throw new ValidationError(`createMirror: bad options: ${formatIssues(issues, { whole: '(options)' })}`, { issues });
  }
}

/**
 * Refuses keys `createMirror` does not know, and the client's options next to a `client` (which
 * has its own): either would be ignored without a word.
 */
function checkKeys(options: MirrorOptions, bad: (field: string, message: string) => void): void {
  for (const key of Object.keys(options)) {
    if (!MIRROR_OPTION_KEYS.has(key)) bad(key, `unknown option (known: ${[...MIRROR_OPTION_KEYS].join(', ')})`);
  }
  if (options.client === undefined) return;
  for (const key of FORWARDED_CLIENT_OPTIONS) {
    if (options[key] !== undefined) bad(key, `a createClient option: with a client given, pass it to createClient (here it would be ignored)`);
  }
}

function isClient(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Record<string, unknown>;
  return ['pages', 'list', 'save', 'categories', 'latestOrders'].every((method) => typeof client[method] === 'function');
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function checkStorage(options: MirrorOptions, bad: (field: string, message: string) => void): void {
  const storage = options.storage as Partial<MirrorStorage> | null | undefined;
  if (storage === undefined) return;
  if (typeof storage !== 'object' || storage === null || typeof storage.indexedDB !== 'object' || typeof storage.IDBKeyRange !== 'function') {
    bad('storage', 'must be a storage with indexedDB and IDBKeyRange (openFileStorage of pos-cloud-mirror/node)');
  }
  if (options.indexedDB !== undefined || options.IDBKeyRange !== undefined) bad('storage', 'give either storage or indexedDB/IDBKeyRange, not both');
}

function checkIndexes(indexes: unknown, issues: ValidationIssue[]): void {
  if (indexes === undefined) return;
  if (typeof indexes !== 'object' || indexes === null || Array.isArray(indexes)) {
    issues.push({ path: ['indexes'], message: 'must be an object of index lists by collection' });
    return;
  }
  for (const [name, list] of Object.entries(indexes)) {
    if (name !== 'categories' && !isCollectionName(name)) {
      issues.push({ path: ['indexes', name], message: `unknown collection; known: ${COLLECTIONS.join(', ')}, categories` });
    } else if (!Array.isArray(list) || !list.every((index) => typeof index === 'string' && index.trim() !== '')) {
      issues.push({ path: ['indexes', name], message: 'must be an array of index specs in Dexie syntax (non-empty strings)' });
    }
  }
}
