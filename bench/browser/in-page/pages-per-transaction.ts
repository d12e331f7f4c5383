/**
 * Page code: what grouping a first sync's pages into fewer transactions would gain. The tenant's
 * pages are fetched and read first, untimed (`allStrictPages`: 400 records a page, as the mirror
 * reads them), then written with bare `bulkPut`s into the mirror's own tables and indexes
 * (`MirrorDb`), `group` pages of one collection per transaction, each grouping on a fresh database,
 * the groupings' order turning each round.
 */
import { Dexie } from 'dexie';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { COLLECTIONS, type CollectionName } from '../../../src/schema/collections.js';
import { allStrictPages } from '../../peers/strict-page.js';

/** What the measurement is given. */
export interface PagesPerTransactionArgs {
  base: string;
  token: string;
  /** Pages per transaction to compare, e.g. [1, 4, 16]. */
  groups: number[];
  rounds: number;
}

/** Records written, and records/s per grouping (one value per round), by pages per transaction. */
export interface PagesPerTransactionResult {
  records: number;
  rates: Record<string, number[]>;
}

const PAGE = 400;

/** Reads every page once, then times each grouping's writes `rounds` times. */
export async function pagesPerTransaction(args: PagesPerTransactionArgs): Promise<PagesPerTransactionResult> {
  const pages: { collection: CollectionName; records: StoredRecord[] }[] = [];
  let records = 0;
  for (const collection of COLLECTIONS) {
    for await (const page of allStrictPages({ baseUrl: args.base, token: args.token }, collection, PAGE)) {
      pages.push({ collection, records: page.records });
      records += page.records.length;
    }
  }
  const rates: Record<string, number[]> = {};
  for (let round = 0; round < args.rounds; round++) {
    const order = args.groups.map((_, i, all) => all[(i + round) % all.length]!);
    for (const group of order) {
      const name = `pages-per-transaction-${group}-${round}`;
      const db = new MirrorDb(name);
      try {
        await db.open();
        const started = performance.now();
        for (let i = 0; i < pages.length; ) {
          const { collection } = pages[i]!;
          const batch: StoredRecord[][] = [];
          while (i < pages.length && pages[i]!.collection === collection && batch.length < group) batch.push(pages[i++]!.records);
          const table = db.table(collection);
          await db.transaction('rw', table, async () => {
            for (const page of batch) await table.bulkPut(page);
          });
        }
        (rates[group] ??= []).push(records / ((performance.now() - started) / 1000));
      } finally {
        db.close();
        await Dexie.delete(name);
      }
    }
  }
  return { records, rates };
}
