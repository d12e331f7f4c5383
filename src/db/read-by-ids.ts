import type { Table } from 'dexie';
import type { StoredRecord } from './sync-rows.js';

/**
 * How the stored copies of a list of ids are read (see {@link readByIds}):
 * - `range`: the ids are every record between the lowest and the highest (a pull without a version
 *   filter), so the rows of that range are read in one query;
 * - `probe`: only the keys stored in that range are read, at most {@link PROBE_KEYS_PER_ID} per id,
 *   and only the ids among them are looked up (the split children of a first sync, which land in a
 *   table that holds few of them yet: a lookup per missing id costs a request each);
 * - `dense`: the ids were made in the same stretch of time (records created here), so they sit
 *   together: the range is read in one query when it holds at most twice as many rows, and at
 *   least {@link DENSE_MIN_IDS} ids are wanted;
 * - `ids`: a lookup per id.
 */
export type IdLookup = 'range' | 'probe' | 'dense' | 'ids';

/** Keys a probed range may hold per id looked for before a lookup per id is cheaper. */
const PROBE_KEYS_PER_ID = 4;

/** Fewer ids than this are looked up one by one in a `dense` read: a count and a range cost more. */
const DENSE_MIN_IDS = 8;

/**
 * The stored records of `ids` in `table`, in the order of `ids` (`undefined` where none is
 * stored), read as `lookup` says. IndexedDB orders string keys code unit by code unit, which is
 * numeric order only between ids of the same length: the range covers the ids of the commonest
 * length, and the others are looked up one by one.
 */
export async function readByIds(table: Table<StoredRecord, string>, ids: readonly string[], lookup: IdLookup): Promise<(StoredRecord | undefined)[]> {
  if (lookup === 'ids' || ids.length === 0 || (lookup === 'dense' && ids.length < DENSE_MIN_IDS)) return table.bulkGet([...ids]);
  const length = commonestLength(ids);
  const same = ids.filter((id) => id.length === length);
  let min = same[0]!;
  let max = same[0]!;
  for (const id of same) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  const range = table.where(':id').between(min, max, true, true);
  const found = new Map<string, StoredRecord>();
  const keep = (records: readonly (StoredRecord | undefined)[]) => {
    for (const record of records) if (record) found.set(record.id, record);
  };
  let lookedUp: readonly string[] = same;
  if (lookup === 'range') keep(await range.toArray());
  else if (lookup === 'dense') {
    // Only when the range holds mostly these records (others may have been created in between).
    if ((await range.count()) <= 2 * same.length) keep(await range.toArray());
    else lookedUp = [];
  } else {
    const most = PROBE_KEYS_PER_ID * same.length;
    const keys = await range.limit(most).primaryKeys();
    const wanted = new Set(same);
    const stored = keys.length >= most ? same : keys.filter((key) => wanted.has(key));
    if (stored.length > 0) keep(await table.bulkGet([...stored]));
  }
  // The ids of other lengths, and those a dense range did not cover, one by one.
  const covered = new Set(lookedUp);
  const rest = ids.filter((id) => !covered.has(id) && !found.has(id));
  if (rest.length > 0) keep(await table.bulkGet(rest));
  return ids.map((id) => found.get(id));
}

/** The length most of `ids` have (the first such, on a tie). */
function commonestLength(ids: readonly string[]): number {
  const counts = new Map<number, number>();
  for (const id of ids) counts.set(id.length, (counts.get(id.length) ?? 0) + 1);
  let best = ids[0]!.length;
  for (const [length, count] of counts) if (count > counts.get(best)!) best = length;
  return best;
}
