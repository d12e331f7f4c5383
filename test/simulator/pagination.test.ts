import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareIds } from '../../src/ids/id.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api, idOf, idsOf, traverse } from './helpers.js';

describe('pagination', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ size: 'small', seed: 9 });
  });
  afterAll(async () => {
    await sim.close();
  });
  const allIds = (collection: 'orders' | 'customers' | 'transactions' | 'shifts' | 'products' | 'stock_history') =>
    sim.store.list(collection).map((r) => r.id as string);

  it('traverses forward in ascending id order, every record exactly once', async () => {
    const records = await traverse(sim, 'customers', '&direction=forward', 37);
    expect(idsOf(records)).toEqual(allIds('customers'));
  });

  it('traverses backward newest first', async () => {
    const records = await traverse(sim, 'stock_history', '&direction=backward', 400);
    expect(idsOf(records)).toEqual(allIds('stock_history').reverse());
  });

  it('lists orders, transactions and shifts backward by default and the rest forward', async () => {
    for (const c of ['orders', 'transactions', 'shifts'] as const) {
      const page = await api(sim).list(`/${c}?limit=5`);
      expect(idsOf(page), c).toEqual(allIds(c).reverse().slice(0, 5));
    }
    for (const c of ['customers', 'products'] as const) {
      const page = await api(sim).list(`/${c}?limit=5`);
      expect(idsOf(page), c).toEqual(allIds(c).slice(0, 5));
    }
  });

  it('uses limit 100 by default, 250 for orders', async () => {
    expect(await api(sim).list('/stock_history')).toHaveLength(100);
    expect(await api(sim).list('/orders')).toHaveLength(250);
  });

  it('accepts limit 1..400 (orders up to 2000) and answers 400 outside', async () => {
    expect(await api(sim).list('/stock_history?limit=400')).toHaveLength(400);
    expect(await api(sim).list('/orders?limit=2000')).toHaveLength(700);
    for (const [path, max] of [['/customers', 400], ['/orders', 2000]] as const) {
      for (const bad of ['0', String(max + 1), '-1', 'ten', '2.5', '']) {
        const answer = await api(sim).get(`${path}?limit=${bad}`);
        expect(answer.status, `${path} limit=${bad}`).toBe(400);
        expect(answer.json).toMatchObject({ error: 'invalid_limit' });
        expect((answer.json as { message: string }).message).toContain(String(max));
      }
    }
  });

  it('continues after id_start, excluding it, in both directions', async () => {
    const ids = allIds('customers');
    const start = ids[10] as string;
    expect(idsOf(await api(sim).list(`/customers?direction=forward&limit=3&id_start=${start}`))).toEqual(ids.slice(11, 14));
    expect(idsOf(await api(sim).list(`/customers?direction=backward&limit=3&id_start=${start}`))).toEqual(ids.slice(7, 10).reverse());
  });

  it('continues from an id that is not (or no longer) a record', async () => {
    const ids = allIds('customers');
    const between = (BigInt(ids[4] as string) + 1n).toString();
    expect(idsOf(await api(sim).list(`/customers?direction=forward&limit=2&id_start=${between}`))).toEqual(ids.slice(5, 7));
    expect(idsOf(await api(sim).list(`/customers?direction=backward&limit=2&id_start=${between}`))).toEqual([ids[4], ids[3]]);
  });

  it('repeats the id_start record at the head of the next page under idStartInclusive', async () => {
    const ids = allIds('customers');
    const start = ids[10] as string;
    sim.setOptions({ idStartInclusive: true });
    try {
      expect(idsOf(await api(sim).list(`/customers?direction=forward&limit=3&id_start=${start}`))).toEqual(ids.slice(10, 13));
      expect(idsOf(await api(sim).list(`/customers?direction=backward&limit=3&id_start=${start}`))).toEqual(ids.slice(8, 11).reverse());
    } finally {
      sim.setOptions({ idStartInclusive: false });
    }
  });

  it('answers 400 for an id_start that is neither a valid id nor 0', async () => {
    for (const bad of ['abc', '-5', '1.5', '12e3', '', '99999999999999999999999', '18446744073709551616']) {
      const answer = await api(sim).get(`/customers?id_start=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.json).toMatchObject({ error: 'invalid_id_start' });
    }
    expect((await api(sim).get('/customers?id_start=0')).status).toBe(200);
  });

  it('answers 400 for a bad direction or version_start', async () => {
    expect((await api(sim).get('/customers?direction=up')).json).toMatchObject({ error: 'invalid_direction' });
    expect((await api(sim).get('/customers?version_start=yesterday')).json).toMatchObject({ error: 'invalid_version_start' });
    expect((await api(sim).get('/customers?version_start=-1')).status).toBe(400);
  });

  it('filters by version_start (_v >= value) and keeps paging across the gaps', async () => {
    const all = sim.store.list('customers');
    const versions = all.map((r) => r._v as number).sort((a, b) => a - b);
    const threshold = versions[Math.floor(versions.length * 0.8)] as number;
    const expected = all.filter((r) => (r._v as number) >= threshold).map((r) => r.id as string);
    const got = await traverse(sim, 'customers', `&direction=forward&version_start=${threshold}`, 20);
    expect(idsOf(got)).toEqual(expected);
    expect(got.every((r) => (r._v as number) >= threshold)).toBe(true);
  });

  it('sees a write made during a delta traversal, by version', async () => {
    const before = sim.store.now();
    const customers = allIds('customers');
    const first = await api(sim).list(`/customers?direction=forward&limit=10&version_start=${before}`);
    expect(first).toEqual([]);
    const edited = sim.store.write('customers', { id: customers[3] as string, note_internal: 'edited' });
    const after = await api(sim).list(`/customers?direction=forward&limit=10&version_start=${before}`);
    expect(idsOf(after)).toEqual([edited.id]);
    expect(after[0]?.note_internal).toBe('edited');
  });

  it('keeps new ids in order: a record created with an old id lands in its place', async () => {
    const ids = allIds('customers');
    const older = (BigInt(ids[0] as string) + 10n).toString();
    const answer = await api(sim).post('/customers', { _t: 'customers', id: older, company: null, lastname: 'Vložený' });
    expect(answer.status).toBe(200);
    const page = await api(sim).list('/customers?direction=forward&limit=3');
    expect(idsOf(page)).toEqual([ids[0], older, ids[1]]);
    const sorted = [...allIds('customers')].sort(compareIds);
    expect(allIds('customers')).toEqual(sorted);
    expect(idOf(page[1]?.id)).toBe(older);
  });
});
