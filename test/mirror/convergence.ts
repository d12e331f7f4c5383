import { expect } from 'vitest';
import type { MirrorDb } from '../../src/db/mirror-db.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import type { CollectionName } from '../../src/schema/collections.js';
import type { Simulator } from '../../src/simulator/index.js';

/** Fields that never take part in a comparison: server-internal, or hydrations split into tables. */
function comparable(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'pgx' || key === '_u_dyn' || key.startsWith('__')) continue;
    out[key] = value;
  }
  return out;
}

/** The differences between the mirror and the server for one collection (empty when equal). */
export async function differences(db: MirrorDb, sim: Simulator, collection: CollectionName): Promise<string[]> {
  const server = new Map(sim.store.list(collection).map((r) => [String(r.id), comparable(r)]));
  const local = new Map((await db.table<StoredRecord, string>(collection).toArray()).map((r) => [r.id, comparable(r)]));
  const problems: string[] = [];
  for (const [id, record] of server) {
    const mine = local.get(id);
    if (!mine) problems.push(`${collection} ${id}: missing in the mirror`);
    else if (JSON.stringify(sortKeys(mine)) !== JSON.stringify(sortKeys(record))) {
      const fields = [...new Set([...Object.keys(mine), ...Object.keys(record)])].filter(
        (k) => JSON.stringify(mine[k]) !== JSON.stringify(record[k]),
      );
      problems.push(`${collection} ${id}: differs in ${fields.map((f) => `${f} (${JSON.stringify(mine[f])} vs ${JSON.stringify(record[f])})`).join(', ')}`);
    }
  }
  for (const id of local.keys()) if (!server.has(id)) problems.push(`${collection} ${id}: not on the server`);
  return problems;
}

/** Asserts that the mirror equals the server record for record in every collection given. */
export async function expectConverged(db: MirrorDb, sim: Simulator, collections: readonly CollectionName[]): Promise<void> {
  const problems: string[] = [];
  for (const c of collections) problems.push(...(await differences(db, sim, c)));
  expect(problems.slice(0, 10), `${problems.length} differences`).toEqual([]);
}

function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
