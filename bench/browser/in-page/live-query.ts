/**
 * Page code: how soon a live query hears of a write. On a synced mirror (the database a first sync
 * kept, opened again by a new mirror, as an app started again would), a view's query
 * (`mirror.live(() => mirror.query.itemsOfOrder(id))`) is subscribed, then one item of that order
 * is edited through `mirror.save` (its quantity, as a till does), many times over: each time, the
 * time from the write's commit (the IndexedDB transaction's `complete` event) to the subscriber's
 * call with the new quantity, and from the `save()` call to it.
 */
import { Dexie } from 'dexie';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { createMirror } from '../../../src/mirror/create-mirror.js';
import type { Mirror } from '../../../src/mirror/mirror.js';

/** What the measurement is given. */
export interface LiveQueryArgs {
  /** The API's base URL and token (nothing is fetched: the mirror is not started). */
  base: string;
  token: string;
  /** The database a first sync kept; deleted afterwards. */
  dbName: string;
  /** How many writes to time. */
  writes: number;
}

/** The timings, one per write (ms). */
export interface LiveQueryResult {
  fromCommitMs: number[];
  fromSaveMs: number[];
  /** Rows of `order_details` in the mirror. */
  tableRows: number;
}

/** A pause between writes, so that each is a single write to a quiet page. */
const GAP_MS = 20;

/** Times `args.writes` writes, each followed by the live query's notification. */
export async function liveQueryNotification(args: LiveQueryArgs): Promise<LiveQueryResult> {
  // Before the mirror opens its database: Dexie binds the connection's `transaction` when it opens.
  const commits = watchCommits('order_details');
  const mirror = createMirror({ baseUrl: args.base, token: args.token, userAgent: 'pos-cloud-mirror browser bench', dbName: args.dbName, categories: false, reconcileIntervalMs: 0 });
  try {
    return await timeWrites(mirror, args.writes, commits);
  } finally {
    commits.stop();
    await mirror.close();
    await Dexie.delete(args.dbName);
  }
}

async function timeWrites(mirror: Mirror, writes: number, commits: Commits): Promise<LiveQueryResult> {
  const items = mirror.db.table<StoredRecord, string>('order_details');
  const item = await items.filter((row) => typeof row.product_quantity === 'number' && row._d === 0).first();
  if (!item) throw new Error('live query: the mirror holds no order item to edit');
  const idOrder = String(item.id_order);
  const first = item.product_quantity as number;

  let awaited: { quantity: number; seen: (at: number) => void } | undefined;
  let ready: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => (ready = resolve));
  let failed: (error: unknown) => void = () => undefined;
  // Rejects when the query fails, at whatever point: every wait below races it.
  const failure = new Promise<never>((_, reject) => (failed = reject));
  failure.catch(() => undefined);
  const subscription = mirror.live(() => mirror.query.itemsOfOrder(idOrder)).subscribe({
    next(rows) {
      const at = performance.now();
      ready();
      const row = rows.find((r) => r.id === item.id);
      if (awaited && row?.product_quantity === awaited.quantity) awaited.seen(at);
    },
    error: (error: unknown) => failed(error),
  });
  const result: LiveQueryResult = { fromCommitMs: [], fromSaveMs: [], tableRows: await items.count() };
  try {
    await Promise.race([subscribed, failure]);
    for (let k = 1; k <= writes; k++) {
      const quantity = first + k;
      const heard = new Promise<number>((resolve) => (awaited = { quantity, seen: resolve }));
      const saved = performance.now();
      await mirror.save('order_details', { id: item.id, product_quantity: quantity });
      const at = await Promise.race([heard, failure]);
      result.fromCommitMs.push(at - commits.last());
      result.fromSaveMs.push(at - saved);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    return result;
  } finally {
    subscription.unsubscribe();
  }
}

/** When the last read-write transaction over a store committed. */
interface Commits {
  last(): number;
  stop(): void;
}

/**
 * Notes when each read-write transaction over `store` commits, whoever opens it: the page's
 * `IDBDatabase.prototype.transaction` is wrapped until `stop()` (connections opened meanwhile keep
 * the wrapper). The listener is added before any of the opener's, so the time is taken before
 * anyone reacts to the commit.
 */
function watchCommits(store: string): Commits {
  const proto = IDBDatabase.prototype;
  const original = proto.transaction;
  let last = Number.NaN;
  proto.transaction = function transaction(this: IDBDatabase, ...args: Parameters<typeof original>) {
    const tx = original.apply(this, args);
    if (tx.mode === 'readwrite' && tx.objectStoreNames.contains(store)) tx.addEventListener('complete', () => (last = performance.now()));
    return tx;
  } as typeof original;
  return {
    last: () => last,
    stop() {
      proto.transaction = original;
    },
  };
}
