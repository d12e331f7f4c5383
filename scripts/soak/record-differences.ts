/**
 * Field-by-field comparison of one collection as the server holds it and as a device stores it:
 * what "the device equals the server" means in the soak's checks and in the mirror's tests.
 */
import type { CollectionName } from '../../src/schema/collections.js';

/**
 * Fields that take no part in a comparison: `pgx` and `_u_dyn` (server-internal, never kept the
 * same way) and hydrations (`__*`), which the mirror splits into tables of their own.
 */
function comparable(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    if (key === 'pgx' || key === '_u_dyn' || key.startsWith('__')) continue;
    out[key] = record[key];
  }
  return out;
}

/**
 * The differences between the server's records of `collection` and a device's, one line each:
 * a record missing on the device, one the server lacks, or one that differs, naming each field
 * with both values (device's first). Empty when they are equal. Ids are compared as strings.
 */
export function recordDifferences(
  collection: CollectionName,
  server: readonly Readonly<Record<string, unknown>>[],
  device: readonly Readonly<Record<string, unknown>>[],
): string[] {
  const theirs = new Map(server.map((r) => [String(r.id), comparable(r)]));
  const mine = new Map(device.map((r) => [String(r.id), comparable(r)]));
  const problems: string[] = [];
  for (const [id, record] of theirs) {
    const local = mine.get(id);
    if (!local) {
      problems.push(`${collection} ${id}: missing on the device`);
      continue;
    }
    if (JSON.stringify(local) === JSON.stringify(record)) continue;
    const fields = [...new Set([...Object.keys(local), ...Object.keys(record)])].filter((k) => JSON.stringify(local[k]) !== JSON.stringify(record[k]));
    problems.push(`${collection} ${id}: differs in ${fields.map((f) => `${f} (${JSON.stringify(local[f])} vs ${JSON.stringify(record[f])})`).join(', ')}`);
  }
  for (const id of mine.keys()) if (!theirs.has(id)) problems.push(`${collection} ${id}: not on the server`);
  return problems;
}
