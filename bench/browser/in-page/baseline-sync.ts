/**
 * Page code: the speed limit a first sync is measured against. The same pages the mirror's first
 * sync reads, in its order (the collections by `DEFAULT_SYNC_GROUPS`; the history collections
 * newest first, `backward` by id, the others `forward`; its page limit, 400 records), fetched with bare `fetch`,
 * parsed with `JSON.parse` and written with Dexie `bulkPut` into tables keyed by `id` alone: no
 * validation, no indexes, no checkpoints, no live queries or status.
 *
 * With `indexes: 'mirror'` the same pages go into the mirror's own tables (`MirrorDb`: its indexes,
 * and the search words its middleware adds to products): what the writes alone cost once the
 * indexes the mirror keeps are paid for, without anything else the mirror does.
 *
 * The simulator serves this baseline ids as JSON strings (`JSON.parse` would round ids above 2^53
 * and lose its place in the traversal); the mirror reads the default wire, ids as bare integers.
 */
import { Dexie } from 'dexie';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import { DEFAULT_SYNC_GROUPS, orderByGroups } from '../../../src/sync/cycle/sync-groups.js';
import { PULL_DEFAULTS } from '../../../src/sync/pull/pull-defaults.js';
import { pageLimitFor } from '../../../src/sync/pull/traverse.js';
import { traversalDirection } from '../../../src/sync/pull/traversal-direction.js';
import { startHeartbeat, type HeartbeatReport } from './heartbeat.js';

/** What the baseline is given. */
export interface BaselineSyncArgs {
  /** The API's base URL, as the page reaches it. */
  base: string;
  token: string;
  /** The collections to copy (taken in the mirror's order, whatever the order given). */
  collections: string[];
  dbName: string;
  /** Stop after this long (ms) and report what was done. */
  limitMs: number;
  /** `none`: tables keyed by `id` alone; `mirror`: the mirror's tables and indexes. @default 'none' */
  indexes?: 'none' | 'mirror';
}

/** One baseline run. */
export interface BaselineSyncResult {
  ms: number;
  records: number;
  /** Time spent in fetch + `JSON.parse` alone (ms). */
  transportMs: number;
  heartbeat: HeartbeatReport;
  /** The run hit `limitMs` before it read every page. */
  bounded: boolean;
}

/** Fetches, parses and stores every page of every collection into a fresh database (its creation timed too). */
export async function baselineSync(args: BaselineSyncArgs): Promise<BaselineSyncResult> {
  const heartbeat = startHeartbeat();
  let report: HeartbeatReport | undefined;
  const started = performance.now();
  const db = args.indexes === 'mirror' ? new MirrorDb(args.dbName) : new Dexie(args.dbName);
  if (args.indexes !== 'mirror') db.version(1).stores(Object.fromEntries(args.collections.map((c) => [c, 'id'])));
  let records = 0;
  let transportMs = 0;
  let bounded = false;
  try {
    await db.open();
    for (const collection of orderByGroups(DEFAULT_SYNC_GROUPS, args.collections as CollectionName[])) {
      // The mirror's traversal of a first sync: its direction and page limit, no id_start on the first page.
      const direction = traversalDirection(collection, 0);
      const limit = pageLimitFor(collection, PULL_DEFAULTS.pageLimit);
      let idStart: string | undefined;
      while (!bounded) {
        const url = `${args.base}/${collection}?limit=${limit}&direction=${direction}&version_start=0${idStart === undefined ? '' : `&id_start=${idStart}`}`;
        const fetched = performance.now();
        const response = await fetch(url, { headers: { Authorization: `A|${args.token}`, Accept: 'application/json' } });
        if (!response.ok) throw new Error(`baseline: GET ${collection} answered ${response.status}`);
        const page = JSON.parse(await response.text()) as { id: string }[];
        transportMs += performance.now() - fetched;
        await db.table(collection).bulkPut(page);
        records += page.length;
        if (page.length < limit) break;
        idStart = page[page.length - 1]!.id;
        bounded = performance.now() - started > args.limitMs;
      }
    }
    const ms = performance.now() - started;
    report = heartbeat.stop();
    return { ms, records, transportMs, heartbeat: report, bounded };
  } finally {
    if (!report) heartbeat.stop();
    db.close();
    await Dexie.delete(args.dbName);
  }
}
