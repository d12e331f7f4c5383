/**
 * Page code: how soon a new tablet's mirror is useful at a register. `createMirror` on a fresh
 * database, then its first sync (`syncNow()`, the categories tree left out); from the mirror's
 * creation, the time until the mirror's own database answers, read locally as an app reads it
 * offline: every register, every product with its price, and every order of the server's last
 * 24 h with all of its items. The moment is found by reading the data, not by a sync group's
 * name, so it measures whatever order the groups pull in. Also the time each sync group's first
 * sync completed (`status.groups`, as `whenSynced` waits for it), the first sync's end, and the
 * records applied before "useful".
 */
import { Dexie } from 'dexie';
import type { MirrorDb } from '../../../src/db/mirror-db.js';
import { createMirror } from '../../../src/mirror/create-mirror.js';
import type { LastDayFacts } from '../../simulator-process.js';

/** What the measurement is given. */
export interface TimeToUsefulArgs {
  base: string;
  token: string;
  dbName: string;
  /** What the server holds, read from the simulator's store. */
  expected: LastDayFacts;
  /** How often the mirror's database is read while the sync runs (ms). */
  pollMs: number;
  /** Stop after this long (ms) and report what was done. */
  limitMs: number;
}

/** One new tablet's first sync. Times in ms from the mirror's creation. */
export interface TimeToUsefulResult {
  /** When the reads first found everything a register needs; null if not by the end (or the limit). */
  usefulMs: number | null;
  /** Records the mirror had applied then (`mirror.progress`). */
  recordsAtUseful: number | null;
  /** The first sync's end; null when it was stopped at the limit. */
  syncMs: number | null;
  /** Records in the mirror's collections at the end. */
  records: number;
  /** When each sync group's first sync completed (`status.groups[name].initialDone`), by name. */
  groupsMs: Record<string, number>;
  /** Reads of the database made while waiting, and the longest of them (ms). */
  checks: number;
  longestCheckMs: number;
  /** The first thing the last failed check found missing, when "useful" was never reached. */
  missing: string | null;
  bounded: boolean;
}

/** Runs a first sync into a fresh database, reading the database every `pollMs` until it is useful. */
export async function timeToUseful(args: TimeToUsefulArgs): Promise<TimeToUsefulResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const mirror = createMirror({
    baseUrl: args.base,
    token: args.token,
    userAgent: 'pos-cloud-mirror browser bench',
    dbName: args.dbName,
    categories: false,
    reconcileIntervalMs: 0,
  });
  const groupsMs: Record<string, number> = {};
  const watch = mirror.status.subscribe({
    next(status) {
      for (const [name, group] of Object.entries(status.groups)) if (group.initialDone && groupsMs[name] === undefined) groupsMs[name] = elapsed();
    },
  });
  const check = usefulCheck(mirror.db, args.expected);
  const result: TimeToUsefulResult = { usefulMs: null, recordsAtUseful: null, syncMs: null, records: 0, groupsMs, checks: 0, longestCheckMs: 0, missing: null, bounded: false };
  const probe = async () => {
    const at = performance.now();
    const missing = await check();
    result.checks++;
    result.longestCheckMs = Math.max(result.longestCheckMs, performance.now() - at);
    result.missing = missing;
    if (missing === null && result.usefulMs === null) {
      result.usefulMs = elapsed();
      result.recordsAtUseful = mirror.progress.value.records;
    }
  };
  let ended = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sync = mirror.syncNow().then(
    () => {
      ended = true;
      result.syncMs = elapsed();
    },
    (error: unknown) => {
      ended = true;
      throw error;
    },
  );
  // One read at a time: the next waits for the one before and for the poll interval.
  const polling = (async () => {
    while (!ended && result.usefulMs === null && elapsed() < args.limitMs) {
      await probe();
      if (result.usefulMs === null) await new Promise((resolve) => setTimeout(resolve, args.pollMs));
    }
  })();
  try {
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, args.limitMs)));
    await Promise.race([sync, limit]);
    await polling;
    result.bounded = !ended;
    // A sync that ended between two reads is read once more: useful at its end at the latest.
    if (!result.bounded && result.usefulMs === null) await probe();
    for (const table of mirror.db.tables) if (!table.name.startsWith('_') && table.name !== 'categories') result.records += await table.count();
    return result;
  } finally {
    clearTimeout(timer);
    watch.unsubscribe();
    ended = true;
    // Neither the reads nor a sync stopped by the close below may outlive this job unheard.
    await polling.catch(() => undefined);
    await mirror.close();
    await sync.catch(() => undefined);
    await Dexie.delete(args.dbName);
  }
}

/**
 * Reads the mirror's database for what a register needs, cheapest first; resolves with the first
 * thing missing, or null when all is there. A part once found stays found (a first sync only adds
 * records), so later reads start at the first part still missing.
 */
function usefulCheck(db: MirrorDb, expected: LastDayFacts): () => Promise<string | null> {
  const orderIds = Object.keys(expected.orders);
  const parts: [string, () => Promise<boolean>][] = [
    ['registers', async () => (await db.cash_registers.count()) === expected.registers],
    ['products', async () => (await db.products.count()) === expected.products],
    ['prices', async () => (await db.product_price_matrix.orderBy('id_product').uniqueKeys()).length === expected.pricedProducts],
    // By primary key: every order the server made in its last day (no index on date_created is needed, nor kept by default).
    ["the last day's orders", async () => (await db.orders.bulkGet(orderIds)).every((order) => order !== undefined)],
    [
      "the last day's order items",
      async () => {
        const items = new Map<string, number>();
        for (const id of await db.order_details.where('id_order').anyOf(orderIds).keys()) items.set(String(id), (items.get(String(id)) ?? 0) + 1);
        return orderIds.every((id) => items.get(id) === expected.orders[id]);
      },
    ],
  ];
  let found = 0;
  return async () => {
    while (found < parts.length) {
      const [name, read] = parts[found]!;
      if (!(await read())) return name;
      found++;
    }
    return null;
  };
}
