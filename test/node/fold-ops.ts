/**
 * The writes of the fold crash test, the same in the process that makes them and in the test that
 * works out what the database must hold: puts and deletions of items, a range deletion, records
 * added to a store that generates its keys and the oldest of them removed.
 */
import type { Dexie } from 'dexie';

export const FOLD_DB = 'pos-cloud-mirror:fold';
export const FOLD_STORES = { items: 'id, group', queue: '++seq, name' };

export type FoldOp =
  | { t: 'put'; id: string; group: number; v: number }
  | { t: 'delete'; id: string }
  | { t: 'deleteRange'; from: string; to: string }
  | { t: 'add'; name: string }
  | { t: 'shift' };

/** What a database of the test holds: items by id, and the names in the queue in key order. */
export interface FoldState {
  items: Map<string, { id: string; group: number; v: number; pad: string }>;
  queue: string[];
}

const PAD = 'x'.repeat(300);

/** The endless, seeded sequence of writes of one process. */
export function* foldOps(seed: number): Generator<FoldOp> {
  let state = (seed * 2654435761) % 2 ** 31;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let v = 0; ; v++) {
    const roll = random();
    const id = `k${String(Math.floor(random() * 60)).padStart(2, '0')}`;
    if (roll < 0.55) yield { t: 'put', id, group: Math.floor(random() * 4), v: seed * 1_000_000 + v };
    else if (roll < 0.7) yield { t: 'delete', id };
    else if (roll < 0.75) yield { t: 'deleteRange', from: id, to: `${id}5` };
    else if (roll < 0.9) yield { t: 'add', name: `${seed}-${v}` };
    else yield { t: 'shift' };
  }
}

/** Makes `op` in one transaction of `db`. */
export async function applyFoldOp(db: Dexie, op: FoldOp): Promise<void> {
  if (op.t === 'put') await db.table('items').put({ id: op.id, group: op.group, v: op.v, pad: PAD });
  else if (op.t === 'delete') await db.table('items').delete(op.id);
  else if (op.t === 'deleteRange') await db.table('items').where(':id').between(op.from, op.to, true, true).delete();
  else if (op.t === 'add') await db.table('queue').add({ name: op.name });
  else await db.transaction('rw', 'queue', async () => {
    const first = await db.table('queue').toCollection().first();
    if (first) await db.table('queue').delete((first as { seq: number }).seq);
  });
}

/** `state` after `op`, as the database must have it. */
export function foldStep(state: FoldState, op: FoldOp): FoldState {
  const items = new Map(state.items);
  let queue = state.queue;
  if (op.t === 'put') items.set(op.id, { id: op.id, group: op.group, v: op.v, pad: PAD });
  else if (op.t === 'delete') items.delete(op.id);
  else if (op.t === 'deleteRange') {
    for (const id of [...items.keys()]) if (id >= op.from && id <= op.to) items.delete(id);
  } else if (op.t === 'add') queue = [...queue, op.name];
  else queue = queue.slice(1);
  return { items, queue };
}

/** What `db` holds, and whether its index agrees with its records. */
export async function foldStateOf(db: Dexie): Promise<{ state: FoldState; indexAgrees: boolean }> {
  const rows = (await db.table('items').toArray()) as FoldState['items'] extends Map<string, infer R> ? R[] : never;
  const items = new Map(rows.map((row) => [row.id, row]));
  const queue = ((await db.table('queue').toArray()) as { name: string }[]).map((row) => row.name);
  let indexAgrees = true;
  for (let group = 0; group < 4; group++) {
    const indexed = await db.table('items').where('group').equals(group).primaryKeys();
    const expected = rows.filter((row) => row.group === group).map((row) => row.id);
    if (JSON.stringify(indexed) !== JSON.stringify(expected)) indexAgrees = false;
  }
  return { state: { items, queue }, indexAgrees };
}
