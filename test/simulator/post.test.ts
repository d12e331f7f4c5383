import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeId, generateId } from '../../src/ids/index.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api, idOf, type Rec } from './helpers.js';

describe('POST to collections', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ seed: 7 });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => {
    sim.setOptions({ postResponse: 'records' });
  });

  const product = (extra: Rec = {}): Rec => ({ _t: 'products', name: 'Zákusek dne', date_updated: 1_700_000_000_000, ...extra });

  it('creates with a generated id when id is 0 or missing, stamping _v and date_created from the clock', async () => {
    const before = sim.store.now();
    const answer = await api(sim).post('/products', product({ id: 0 }));
    expect(answer.status).toBe(200);
    const stored = answer.json as Rec;
    const id = idOf(stored.id);
    expect(decodeId(id).tableId).toBe(11);
    expect(stored._v as number).toBeGreaterThanOrEqual(before);
    expect(stored.date_created as number).toBeGreaterThanOrEqual(before);
    expect(stored).toMatchObject({ _t: 'products', _d: 0, name: 'Zákusek dne', visible: true, quantity_minimal: 1, accounting_group: 600000 });
    expect(typeof stored.pgx).toBe('string');
    expect(sim.store.get('products', id)?.name).toBe('Zákusek dne');
    const missing = (await api(sim).post('/products', product())).json as Rec;
    expect(idOf(missing.id)).not.toBe(id);
  });

  it('creates with a client-generated id, and a retry of it updates the same record', async () => {
    const id = generateId('customers', { now: sim.store.now() });
    const body = { _t: 'customers', id, company: null, lastname: 'Dvořák', firstname: 'Jiří' };
    const first = (await api(sim).post('/customers', body)).json as Rec;
    const count = sim.store.count('customers');
    const second = (await api(sim).post('/customers', body)).json as Rec;
    expect(idOf(first.id)).toBe(id);
    expect(idOf(second.id)).toBe(id);
    expect(sim.store.count('customers')).toBe(count);
    expect(second._v as number).toBeGreaterThan(first._v as number);
    expect(second.date_created).toBe(first.date_created);
    expect(sim.requests.timesPosted('customers', id)).toBe(2);
    const last = sim.requests.last();
    expect(last?.written).toEqual({ collection: 'customers', ids: [id], created: [] });
  });

  it('replaces the whole record on update (full upsert), keeping date_created', async () => {
    const existing = sim.store.list('customers')[0] as Rec;
    const answer = await api(sim).post('/customers', { _t: 'customers', id: existing.id, company: 'Nová s.r.o.', date_created: 5 });
    const stored = answer.json as Rec;
    expect(stored.company).toBe('Nová s.r.o.');
    expect(stored.lastname).toBeUndefined();
    expect(stored.date_created).toBe(existing.date_created);
    expect(stored._v as number).toBeGreaterThan(existing._v as number);
  });

  it('stamps a strictly increasing _v on every write, also within one batch', async () => {
    const answer = await api(sim).post('/products', [product(), product(), product()]);
    const versions = (answer.json as Rec[]).map((r) => r._v as number);
    expect(versions[1]).toBeGreaterThan(versions[0] as number);
    expect(versions[2]).toBeGreaterThan(versions[1] as number);
  });

  it('returns batches in body order and ignores what only the server writes', async () => {
    const answer = await api(sim).post('/products', [product({ name: 'A', pgx: 'x', _u_dyn: 1, _v: 3, id_c: 999, __price_matrix_model: { id: 1 } }), product({ name: 'B' })]);
    const [a, b] = answer.json as Rec[];
    expect(a?.name).toBe('A');
    expect(b?.name).toBe('B');
    expect(a?.id_c).toBe(Number(sim.store.idC));
    expect(a?.pgx).not.toBe('x');
    expect(a?._v).not.toBe(3);
    expect(a && '__price_matrix_model' in a).toBe(false);
  });

  it('rejects a batch with one bad record whole, naming its index and fields', async () => {
    const count = sim.store.count('products');
    const answer = await api(sim).post('/products', [product({ name: 'ok' }), product({ name: 42, visible: 'yes' }), { name: 'no type' }]);
    expect(answer.status).toBe(400);
    const body = answer.json as { error: string; message: string; records: { index: number; issues: { path: (string | number)[]; message: string }[] }[] };
    expect(body.error).toBe('validation');
    expect(body.records.map((r) => r.index)).toEqual([1, 2]);
    expect(body.records[0]?.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['name', 'visible']));
    expect(body.records[1]?.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['_t', 'date_updated']));
    expect(body.message).toContain('record 1');
    expect(sim.store.count('products')).toBe(count);
  });

  it('rejects a _t of another table, a bad id, and bodies that are not records', async () => {
    expect((await api(sim).post('/products', product({ _t: 'customers' }))).status).toBe(400);
    expect((await api(sim).post('/products', product({ id: 'abc' }))).json).toMatchObject({ records: [{ index: 0, issues: [{ path: ['id'] }] }] });
    expect((await api(sim).post('/products', product({ id: -10 }))).status).toBe(400);
    for (const body of ['null', '42', '"x"', '[1]']) expect((await api(sim).post('/products', body)).status, body).toBe(400);
  });

  it('answers 400 with the position for invalid JSON, and 415 without a JSON content type', async () => {
    const bad = await api(sim).post('/products', '{"_t":"products",}');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: 'invalid_json', position: 17 });
    const plain = await api(sim).post('/products', JSON.stringify(product()), { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.json).toMatchObject({ error: 'unsupported_media_type' });
    expect((await api(sim).post('/products', JSON.stringify(product()), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('keeps ids beyond 2^53 exact when they arrive as bare integers', async () => {
    const id = generateId('orders', { now: Date.UTC(2026, 0, 2) });
    expect(BigInt(id)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    const shop = sim.store.list('shops')[0] as Rec;
    const shift = sim.store.list('shifts').at(-1) as Rec;
    const text = `{"_t":"orders","id":${id},"id_shop":${String(shop.id)},"id_cash_register":${String(shift.id_cash_register)},"id_shift":${String(shift.id)},"id_employee":${String(shift.id_employee)},"id_employee_served":${String(shift.id_employee)},"id_park_location":0,"currency":"CZK"}`;
    const answer = await api(sim).post('/orders', text);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`"id":${id},`);
    expect(sim.store.get('orders', id)?._u_dyn).toBe((answer.json as Rec)._v);
  });

  it('marks a product deleted through POST as not visible', async () => {
    const created = (await api(sim).post('/products', product())).json as Rec;
    const deleted = (await api(sim).post('/products', { ...product(), id: created.id, _d: 1_767_300_000_000 })).json as Rec;
    expect(deleted.visible).toBe(false);
    const flagged = (await api(sim).post('/products', product({ deleted: 1 }))).json as Rec;
    expect(flagged._d).not.toBe(0);
    expect(flagged.visible).toBe(false);
  });

  it('answers with ids or an empty body under the postResponse switch', async () => {
    sim.setOptions({ postResponse: 'ids' });
    const many = await api(sim).post('/products', [product(), product()]);
    expect(many.text).toMatch(/^\[\d+,\d+\]$/);
    const one = await api(sim).post('/products', product());
    expect(one.text).toMatch(/^\{"id":\d+\}$/);
    sim.setOptions({ postResponse: 'empty' });
    const empty = await api(sim).post('/products', product());
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('');
    expect(sim.requests.last()?.written?.created).toHaveLength(1);
  });

  it('accepts an empty batch', async () => {
    const answer = await api(sim).post('/products', []);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([]);
  });

  it('counts how many applied POSTs carried each record', async () => {
    const id = generateId('products', { now: sim.store.now() });
    await api(sim).post('/products', product({ id }));
    await api(sim).post('/products', [product({ id }), product()]);
    await api(sim).post('/products', [product({ id }), { bad: true }]);
    expect(sim.requests.timesPosted('products', id)).toBe(2);
    expect(sim.requests.postedIds('products').get(id)).toBe(2);
    expect(sim.requests.count('POST /products')).toBeGreaterThanOrEqual(3);
  });
});
