import fc from 'fast-check';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';
import { compareIds } from '../../src/ids/id.js';
import type { CollectionName } from '../../src/schema/collections.js';
import { differences } from './convergence.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

/**
 * Random interleavings of what happens to an offline-first mirror in the field: two devices (two
 * databases) editing, creating and deleting offline, registers editing the same records on the
 * server, syncs, faults (500, 429, dropped connections, answers cut off after the server applied
 * the POST) and restarts. After the dust settles (faults off, conflicts resolved for the server,
 * sync until quiet), every mirror must equal the server, every local create must be on the server
 * exactly once, and every device's last edit of a field must be on the server unless it was
 * recorded as a conflict or someone else wrote that field later.
 */

type Device = 0 | 1;
const COLLECTIONS_UNDER_TEST = ['customers', 'products'] as const;
type Col = (typeof COLLECTIONS_UNDER_TEST)[number];
const FIELDS: Record<Col, readonly string[]> = {
  customers: ['firstname', 'lastname', 'note_internal'],
  products: ['name', 'sku', 'notes_quick'],
};
const VALUES = ['red', 'green', 'blue', 'teal'];
const HOT = 3;

type Action =
  | { kind: 'edit'; device: Device; collection: Col; pick: number; field: number; value: string }
  | { kind: 'create'; device: Device; collection: Col; value: string }
  | { kind: 'remove'; device: Device; collection: Col; pick: number }
  | { kind: 'server'; collection: Col; pick: number; field: number; value: string }
  | { kind: 'serverRemove'; collection: Col; pick: number }
  | { kind: 'sync'; device: Device }
  | { kind: 'faults'; faults: Record<string, number> }
  | { kind: 'restart'; device: Device };

const device = fc.constantFrom<Device>(0, 1);
const collection = fc.constantFrom<Col>(...COLLECTIONS_UNDER_TEST);
const value = fc.constantFrom(...VALUES);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), device, collection, pick: fc.nat(), field: fc.nat(2), value }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('create' as const), device, collection, value }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), device, collection, pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('server' as const), collection, pick: fc.nat(), field: fc.nat(2), value }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('serverRemove' as const), collection, pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('sync' as const), device }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('faults' as const),
      faults: fc.constantFrom({}, { errorRate: 0.5 }, { extra429Rate: 0.5 }, { dropRate: 0.5 }, { truncateRate: 0.5 }, { dropRate: 0.3, truncateRate: 0.3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), device }) },
);

/** One run: a fresh simulator and two devices, the actions, the settling, the checks. */
async function run(seed: number, actions: Action[]): Promise<void> {
  const fx: MirrorFixture = await startMirrorFixture({ seed, logSize: 100_000 });
  const factories = [new IDBFactory(), new IDBFactory()];
  const open = (d: Device) =>
    fx.mirror({ factory: factories[d]!, collections: [...COLLECTIONS_UNDER_TEST], categories: false, reconcileIntervalMs: 0 });
  const mirrors: Mirror[] = [open(0), open(1)];
  try {
    const initial = Object.fromEntries(COLLECTIONS_UNDER_TEST.map((c) => [c, fx.sim.store.count(c)])) as Record<Col, number>;
    for (const m of mirrors) await m.syncNow();

    let step = 0;
    /** Last local edit of each device per record field, when the value changed locally. */
    const lastEdit = new Map<string, { device: Device; collection: Col; id: string; field: string; value: string; step: number }>();
    /** Every write to a record field, by anyone: the steps. */
    const writes = new Map<string, { source: string; step: number; value: string }[]>();
    const removed = new Set<string>();
    const conflicted = new Set<string>();
    const created: Record<Col, string[]> = { customers: [], products: [] };
    const noteWrite = (source: string, c: Col, id: string, field: string, value: string) => {
      const key = `${c}|${id}|${field}`;
      writes.set(key, [...(writes.get(key) ?? []), { source, step, value }]);
    };
    const noteConflicts = async (d: Device) => {
      for (const row of await mirrors[d]!.conflicts()) conflicted.add(`${d}|${row.collection}|${row.id}`);
    };
    // Edits go to a few hot records (the oldest HOT of each collection, the same on every side)
    // so that devices and registers meet on the same records and fields.
    const pickLocal = async (d: Device, c: Col, pick: number): Promise<StoredRecord | undefined> => {
      const all = (await mirrors[d]!.db.table<StoredRecord, string>(c).toArray()).sort((x, y) => compareIds(x.id, y.id)).slice(0, HOT);
      return all.length === 0 ? undefined : all[pick % all.length];
    };
    const pickServer = (c: Col, pick: number) => {
      const all = fx.sim.store.list(c).slice(0, HOT);
      return all.length === 0 ? undefined : all[pick % all.length];
    };

    for (const a of actions) {
      step++;
      switch (a.kind) {
        case 'edit': {
          const record = await pickLocal(a.device, a.collection, a.pick);
          if (!record) break;
          const field = FIELDS[a.collection][a.field]!;
          if (record[field] === a.value) break; // not a change: nothing to push
          await mirrors[a.device]!.save(a.collection, { id: record.id, [field]: a.value });
          lastEdit.set(`${a.device}|${a.collection}|${record.id}|${field}`, { device: a.device, collection: a.collection, id: record.id, field, value: a.value, step });
          noteWrite(`device ${a.device}`, a.collection, record.id, field, a.value);
          break;
        }
        case 'create': {
          const body = a.collection === 'customers' ? { company: null, firstname: a.value } : { name: a.value, date_updated: Date.UTC(2026, 0, 1) };
          created[a.collection].push(await mirrors[a.device]!.save(a.collection, body));
          break;
        }
        case 'remove': {
          const record = await pickLocal(a.device, a.collection, a.pick);
          if (!record) break;
          await mirrors[a.device]!.remove(a.collection, record.id);
          removed.add(`${a.collection}|${record.id}`);
          break;
        }
        case 'server': {
          const record = pickServer(a.collection, a.pick);
          if (!record) break;
          const field = FIELDS[a.collection][a.field]!;
          // Rewriting the value a field already has changes nothing a three-way merge can see:
          // the register's write is then no change to protect (as for device edits above).
          const changes = record[field] !== a.value;
          if (a.collection === 'products') fx.sim.store.editProduct(String(record.id), { [field]: a.value });
          else fx.sim.store.write(a.collection, { id: record.id, [field]: a.value });
          if (changes) noteWrite('server', a.collection, String(record.id), field, a.value);
          break;
        }
        case 'serverRemove': {
          const record = pickServer(a.collection, a.pick);
          if (!record) break;
          fx.sim.store.remove(a.collection, String(record.id));
          removed.add(`${a.collection}|${String(record.id)}`);
          break;
        }
        case 'sync':
          await mirrors[a.device]!.syncNow().catch(() => undefined);
          await noteConflicts(a.device);
          break;
        case 'faults':
          fx.sim.setFaults(a.faults);
          break;
        case 'restart':
          await mirrors[a.device]!.close();
          mirrors[a.device] = open(a.device);
          break;
      }
    }

    // The dust settles: faults off; conflicts are noted and resolved for the server; sync until
    // both outboxes are empty, then once more each so both have read the other's last push.
    fx.sim.setFaults({});
    for (let round = 0; round < 8; round++) {
      for (const d of [0, 1] as const) {
        await mirrors[d]!.syncNow();
        await noteConflicts(d);
        for (const row of await mirrors[d]!.conflicts()) await mirrors[d]!.resolveConflict(row.key, 'server');
      }
      const pending = (await mirrors[0]!.pending()).length + (await mirrors[1]!.pending()).length;
      if (pending === 0) break;
    }
    for (const m of mirrors) await m.syncNow();

    for (const d of [0, 1] as const) {
      expect(await mirrors[d]!.pending(), `device ${d} outbox`).toEqual([]);
      for (const c of COLLECTIONS_UNDER_TEST) {
        expect((await differences(mirrors[d]!.db, fx.sim, c as CollectionName)).slice(0, 5), `device ${d} ${c}`).toEqual([]);
      }
    }

    // Nothing created twice: every local create is on the server, created by exactly one POST.
    const createdOnServer = new Map<string, number>();
    for (const r of fx.sim.requests.recent()) for (const id of r.written?.created ?? []) createdOnServer.set(`${r.written!.collection}|${id}`, (createdOnServer.get(`${r.written!.collection}|${id}`) ?? 0) + 1);
    for (const c of COLLECTIONS_UNDER_TEST) {
      expect(fx.sim.store.count(c), `${c} on the server`).toBe(initial[c] + created[c].length);
      for (const id of created[c]) expect(createdOnServer.get(`${c}|${id}`), `${c} ${id} created`).toBe(1);
    }

    // Every device's last edit of a field is on the server, unless it was recorded as a
    // conflict, the record was deleted, or someone else wrote the field later.
    for (const e of lastEdit.values()) {
      if (conflicted.has(`${e.device}|${e.collection}|${e.id}`) || removed.has(`${e.collection}|${e.id}`)) continue;
      const later = (writes.get(`${e.collection}|${e.id}|${e.field}`) ?? []).some((w) => w.step > e.step && w.source !== `device ${e.device}`);
      if (later) continue;
      expect(fx.sim.store.get(e.collection, e.id)?.[e.field], `device ${e.device}: ${e.collection} ${e.id} ${e.field}`).toBe(e.value);
    }

    // A register's edit is never overwritten by a device that had not seen it: when the server
    // wrote a field last, the server still has that value.
    for (const [key, list] of writes) {
      const last = list[list.length - 1]!;
      const [c, id, field] = key.split('|') as [Col, string, string];
      if (last.source !== 'server' || removed.has(`${c}|${id}`)) continue;
      expect(fx.sim.store.get(c, id)?.[field], `register edit of ${key}`).toBe(last.value);
    }
  } finally {
    await fx.close();
  }
}

describe('write side properties', () => {
  it('two devices, registers, faults and restarts converge: mirrors equal the server, no edit lost or applied twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.array(action, { minLength: 5, maxLength: 24 }), run),
      { numRuns: 30, endOnFailure: true },
    );
  }, 180_000);
});
