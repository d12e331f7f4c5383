import { z } from 'zod';
import type { ClientOptions } from '../client/index.js';
import { delayMs, positiveMs } from '../schema/timer-limit.js';
import { defaultDbName } from '../db/db-name.js';
import type { ExtraIndexes } from '../db/stores.js';
import type { MirrorStorage } from '../db/mirror-database.js';
import type { ValidationIssue } from '../errors/index.js';
import { COLLECTIONS, type CollectionName } from '../schema/collections.js';
import { listOf, parseOptionsOrThrow, withRules } from '../schema/option-schema.js';
import { DEFAULT_LEASE_MS, type SyncEnvironment } from '../sync/coordination/index.js';
import { LATEST_ORDERS_INTERVAL_MS } from '../sync/latest-orders/index.js';
import { PULL_DEFAULTS } from '../sync/pull/index.js';
import { BATCH_DEFAULTS, batchOption, conflictOption, DEFAULT_CONFLICT, type BatchLimits, type ConflictOption } from '../sync/push/index.js';
import type { SyncClient } from '../sync/index.js';
import { DEFAULT_SYNC_GROUPS, type HistoryWindow, type SyncGroup } from '../sync/cycle/index.js';
import { historyWindowOption } from './history-window-option.js';
import { syncGroupsCoverage, syncGroupsOption } from './sync-groups-option.js';

/**
 * Options of `createMirror`. Every default is in {@link MIRROR_DEFAULTS}. `G` is the names of the
 * groups of `syncGroups`, which `whenSynced` and `status.groups` know.
 */
export interface MirrorOptions<G extends string = string> {
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
  /**
   * The order of a first sync: groups of collections, pulled one group after the other, each
   * group's collections in the order given. `status.groups` says when each group's first sync is
   * complete, and `whenSynced(name)` waits for it. Every collection the mirror keeps (see
   * `collections`) belongs to exactly one group, else a `ValidationError` names it; a group may
   * name collections the mirror does not keep (they are skipped). Pushes keep their own order,
   * parents first, whatever this says. @default DEFAULT_SYNC_GROUPS: reference, catalogue, recent (the orders and items of the last day), history
   */
  syncGroups?: readonly SyncGroup<G>[];
  /**
   * The history window: per history collection, how many days back the mirror keeps its records
   * (`{ orders: 30, stock_history: 7 }`; `orders` bounds `order_details` too). A first sync stops
   * each bounded traversal at the window's edge; deltas keep no record created before it (unless
   * the mirror still holds a copy, or an edit of it waits); records that fall out of it are pruned
   * at the end of a run, at most hourly, never one with an edit not yet acknowledged or a
   * conflict, and edits of records outside it are still pushed. `status.historyEdge` says where
   * each collection is complete from. Older history is the service's order history report
   * (`POST /reports/generic/order_history`). Enlarging or removing a window later needs a
   * `resync()` of the collection to fetch the older records. @default unbounded (the whole history)
   */
  historyWindow?: HistoryWindow;
  /** Also mirror the category tree. @default true */
  categories?: boolean;
  /** Delay between delta syncs (ms). @default 30_000 */
  pollIntervalMs?: number;
  /** Conflict strategy. @default 'merge' */
  conflict?: ConflictOption;
  /** Records per page when pulling. @default 400 */
  pageLimit?: number;
  /**
   * The most pages of a pull written in one IndexedDB transaction, with the cursor of the last
   * (1 to 64): the pages that arrived while the previous write ran. More pages per transaction cost
   * fewer commits on a long first sync, where the writes are the slower side, and up to twice this
   * many pages held in memory; a tab closed mid-pull resumes after the last transaction, so up to
   * this many pages are fetched again. When the network is the slower side each page is written
   * as it comes, whatever this says. @default 8
   */
  pagesPerTransaction?: number;
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

/** Defaults of {@link MirrorOptions} (and of `watchLatestOrders`' `intervalMs`), in one place. */
export const MIRROR_DEFAULTS = {
  pollIntervalMs: 30_000,
  pageLimit: PULL_DEFAULTS.pageLimit,
  pagesPerTransaction: PULL_DEFAULTS.pagesPerTransaction,
  skewMarginMs: PULL_DEFAULTS.skewMarginMs,
  reconcileIntervalMs: 86_400_000,
  conflict: DEFAULT_CONFLICT,
  categories: true,
  syncGroups: DEFAULT_SYNC_GROUPS,
  batch: BATCH_DEFAULTS,
  leaderLeaseMs: DEFAULT_LEASE_MS,
  /** Delay between two polls of `watchLatestOrders` (ms). */
  latestOrdersIntervalMs: LATEST_ORDERS_INTERVAL_MS,
} as const;

/**
 * {@link MirrorOptions} once checked, as `createMirror` builds the mirror from them: the options
 * given, with every default of {@link MIRROR_DEFAULTS} filled in and the database named.
 */
export type ResolvedMirrorOptions = MirrorOptions &
  Required<Pick<MirrorOptions, 'syncGroups' | 'dbName' | 'collections' | 'categories' | 'pollIntervalMs' | 'conflict' | 'pageLimit' | 'pagesPerTransaction' | 'skewMarginMs' | 'reconcileIntervalMs' | 'leaderLeaseMs'>> & {
    batch: BatchLimits;
  };

const NON_EMPTY_MESSAGE = 'must be a non-empty string';
const nonEmpty = z.string({ error: NON_EMPTY_MESSAGE }).min(1, NON_EMPTY_MESSAGE).optional();
// Compared with elapsed time, never put in a timer: any length.
const MS_MESSAGE = 'must be a finite number of ms >= 0';
const anyMs = z.number({ error: MS_MESSAGE }).min(0, MS_MESSAGE);
const PAGE_LIMIT_MESSAGE = "must be an integer of at least 1 (each collection's maximum applies)";
const PAGES_PER_TRANSACTION_MESSAGE = 'must be an integer from 1 to 64';
const INDEX_TABLES = [...COLLECTIONS, 'categories'] as const;
const CLIENT_METHODS = ['pages', 'list', 'save', 'categories', 'latestOrders'] as const;
const forwarded = z.custom<unknown>().optional(); // checked by createClient, which takes them

/**
 * Every option, in the order their issues are listed. What the mirror itself uses is checked
 * here (types, ranges, collection names, delays a timer can wait), and the connection options as
 * far as naming the database needs them: `createClient` checks `token` and `userAgent` further.
 */
const mirrorOptionShape = {
  client: z.custom<SyncClient>(
    (value) => typeof value === 'object' && value !== null && CLIENT_METHODS.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    { error: 'must be a client made with createClient' },
  ).optional(),
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  token: nonEmpty,
  userAgent: nonEmpty,
  dbName: nonEmpty,
  tenant: nonEmpty,
  collections: z
    .array(z.enum(COLLECTIONS, { error: (issue) => `unknown collection ${JSON.stringify(issue.input)}; known: ${COLLECTIONS.join(', ')}` }), {
      error: 'must be an array of collection names',
    })
    .default(() => [...COLLECTIONS]),
  syncGroups: syncGroupsOption,
  historyWindow: historyWindowOption,
  categories: z.boolean({ error: 'must be true or false' }).default(MIRROR_DEFAULTS.categories),
  // A delay that ends up in a timer: 0 is allowed where it means "at once".
  pollIntervalMs: delayMs.default(MIRROR_DEFAULTS.pollIntervalMs),
  // 0 turns the sweep off.
  reconcileIntervalMs: anyMs.default(MIRROR_DEFAULTS.reconcileIntervalMs),
  // A lease of 0 would have the campaign spin.
  leaderLeaseMs: positiveMs.default(MIRROR_DEFAULTS.leaderLeaseMs),
  skewMarginMs: anyMs.default(MIRROR_DEFAULTS.skewMarginMs),
  pageLimit: z.int({ error: PAGE_LIMIT_MESSAGE }).min(1, PAGE_LIMIT_MESSAGE).default(MIRROR_DEFAULTS.pageLimit),
  pagesPerTransaction: z
    .int({ error: PAGES_PER_TRANSACTION_MESSAGE })
    .min(1, PAGES_PER_TRANSACTION_MESSAGE)
    .max(64, PAGES_PER_TRANSACTION_MESSAGE)
    .default(MIRROR_DEFAULTS.pagesPerTransaction),
  storage: z.custom<MirrorStorage>(
    (value) => typeof value === 'object' && value !== null && typeof (value as Partial<MirrorStorage>).indexedDB === 'object' && typeof (value as Partial<MirrorStorage>).IDBKeyRange === 'function',
    { error: 'must be a storage with indexedDB and IDBKeyRange (openFileStorage of pos-cloud-mirror/node)' },
  ).optional(),
  conflict: conflictOption,
  batch: batchOption,
  indexes: z.record(
    z.string().refine((name) => (INDEX_TABLES as readonly string[]).includes(name)),
    listOf(z.string().refine((index) => index.trim() !== ''), 'must be an array of index specs in Dexie syntax (non-empty strings)'),
    { error: (issue) => (issue.code === 'invalid_key' ? `unknown collection; known: ${INDEX_TABLES.join(', ')}` : 'must be an object of index lists by collection') },
  ).optional(),
  environment: z.custom<Partial<SyncEnvironment>>((value) => typeof value === 'object' && value !== null, { error: 'must be an object' }).optional(),
  indexedDB: z.custom<IDBFactory>().optional(),
  IDBKeyRange: z.custom<typeof IDBKeyRange>().optional(),
  fetch: forwarded,
  timeoutMs: forwarded,
  retry: forwarded,
  clientUserAgentHeader: forwarded,
  onRetry: forwarded,
} satisfies Record<keyof MirrorOptions, z.ZodType>;

/** The options that depend on each other. */
function mirrorOptionRules(given: Readonly<Record<string, unknown>>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ path: [field], message });
  if (given.client !== undefined) {
    // The client has its own: here they would be ignored without a word.
    for (const key of FORWARDED_CLIENT_OPTIONS) {
      if (given[key] !== undefined) bad(key, 'a createClient option: with a client given, pass it to createClient (here it would be ignored)');
    }
    // The database is named after the service: without either, two services would share one.
    if (!given.baseUrl && given.dbName === undefined) bad('dbName', 'required with a client when no baseUrl is given (one database per service and tenant)');
  } else {
    for (const key of ['baseUrl', 'token', 'userAgent'] as const) if (!given[key]) bad(key, 'required when no client is given');
  }
  issues.push(...syncGroupsCoverage(given));
  if (given.storage !== undefined && (given.indexedDB !== undefined || given.IDBKeyRange !== undefined)) bad('storage', 'give either storage or indexedDB/IDBKeyRange, not both');
  return issues;
}

const mirrorOptionsSchema = withRules(
  z.strictObject(mirrorOptionShape, {
    // Any other key is refused: a misplaced option would be ignored silently.
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown option (known: ${Object.keys(mirrorOptionShape).join(', ')})` : 'expected an object'),
  }),
  mirrorOptionRules,
);

/**
 * Checks the options of `createMirror` once, at creation, and fills in every default: the one
 * place they are resolved. Every bad option is named in a single `ValidationError`.
 */
export function resolveMirrorOptions(options: MirrorOptions): ResolvedMirrorOptions {
  const value = parseOptionsOrThrow(mirrorOptionsSchema, options, { factory: 'createMirror', heading: 'bad options', notAnObject: true });
  // The given objects stay themselves (the client, the storage the mirror closes): only defaults are added.
  return {
    ...options,
    // With no baseUrl, the rules above made dbName required.
    dbName: value.dbName ?? defaultDbName(value.baseUrl ?? '', value.tenant),
    collections: value.collections,
    syncGroups: value.syncGroups,
    categories: value.categories,
    pollIntervalMs: value.pollIntervalMs,
    conflict: value.conflict,
    pageLimit: value.pageLimit,
    pagesPerTransaction: value.pagesPerTransaction,
    skewMarginMs: value.skewMarginMs,
    reconcileIntervalMs: value.reconcileIntervalMs,
    leaderLeaseMs: value.leaderLeaseMs,
    batch: value.batch,
  };
}
