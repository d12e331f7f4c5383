import { expect } from 'vitest';
import type { MirrorDb } from '../../src/db/mirror-db.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import type { CollectionName } from '../../src/schema/collections.js';
import type { Simulator } from '../../src/simulator/index.js';
import { recordDifferences } from '../../scripts/soak/record-differences.js';

/** The differences between the mirror and the server for one collection (empty when equal). */
export async function differences(db: MirrorDb, sim: Simulator, collection: CollectionName): Promise<string[]> {
  return recordDifferences(collection, sim.store.list(collection), await db.table<StoredRecord, string>(collection).toArray());
}

/** Asserts that the mirror equals the server record for record in every collection given. */
export async function expectConverged(db: MirrorDb, sim: Simulator, collections: readonly CollectionName[]): Promise<void> {
  const problems: string[] = [];
  for (const c of collections) problems.push(...(await differences(db, sim, c)));
  expect(problems.slice(0, 10), `${problems.length} differences`).toEqual([]);
}
