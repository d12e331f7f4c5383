import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { toWire } from '../../src/simulator/http/wire.js';
import { parseRecord } from '../../src/schema/index.js';
import { api } from './helpers.js';

describe('ids on the wire', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ size: 'small', seed: 2 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('sends ids as bare JSON integers, exact beyond 2^53', async () => {
    const newest = sim.store.list('orders').at(-1) as Record<string, unknown>;
    expect(BigInt(newest.id as string)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    const answer = await api(sim).get('/orders?limit=1');
    expect(answer.text).toContain(`"id":${String(newest.id)},`);
    expect(answer.text).toContain(`"id_shop":${String(newest.id_shop)},`);
    expect(answer.text).toContain(`"id_c":${sim.store.idC},`);
    expect(answer.text).toMatch(/"id_payment":2\d\d,/);
    expect((answer.json as Record<string, unknown>[])[0]?.id).toBe(newest.id);
  });

  it("sends customers' id_c as a string and their other ids as integers", async () => {
    const answer = await api(sim).get('/customers?limit=1');
    expect(answer.text).toContain(`"id_c":"${sim.store.idC}"`);
    expect(answer.text).toMatch(/^\[\{"id":\d+,/);
  });

  it('sends every id as a string under idsAsStrings', async () => {
    sim.setOptions({ idsAsStrings: true });
    try {
      const answer = await api(sim).get('/products?limit=1');
      expect(answer.text).toMatch(/^\[\{"id":"\d+","id_c":"\d+"/);
      expect(answer.text).toMatch(/"__price_matrix_model":\{"id":"\d+"/);
      expect(answer.text).not.toMatch(/"id(_[a-z_]+)?":\d/);
    } finally {
      sim.setOptions({ idsAsStrings: false });
    }
  });

  it('never rewrites id-looking text inside string values', () => {
    const tricky = { id: '5', note: 'x","id":"7","y', tags: '"id_shop":"9"' };
    const text = toWire(tricky, { idsAsStrings: false });
    expect(text).toBe('{"id":5,"note":"x\\",\\"id\\":\\"7\\",\\"y","tags":"\\"id_shop\\":\\"9\\""}');
    expect(JSON.parse(text)).toEqual({ id: 5, note: tricky.note, tags: tricky.tags });
  });

  it('rewrites nested ids, leaves non-canonical digits and id_payment-like numbers alone, and keeps customers\' id_c', () => {
    expect(toWire({ id_c: '9', a: [{ id: '10', id_x: '007', id_y: '' }], __price_matrix_model: { id_product: '12' } }, { idsAsStrings: false })).toBe(
      '{"id_c":9,"a":[{"id":10,"id_x":"007","id_y":""}],"__price_matrix_model":{"id_product":12}}',
    );
    expect(toWire([{ id: '1', id_c: '9', id_customer: '3' }], { idsAsStrings: false }, 'customers')).toBe('[{"id":1,"id_c":"9","id_customer":3}]');
    expect(toWire({ identity: '5', id_payment: 221, paid: '7' }, { idsAsStrings: false })).toBe('{"identity":"5","id_payment":221,"paid":"7"}');
  });
});

describe('the looseWire switch', () => {
  it('writes every number as a string and every boolean as 0 or 1, at any depth', () => {
    const text = toWire({ id: '5', _v: 17, price: 1.21, visible: true, deleted: false, none: null, kids: [{ qty: -3, ok: true }] }, { idsAsStrings: false, looseWire: true });
    expect(text).toBe('{"id":"5","_v":"17","price":"1.21","visible":1,"deleted":0,"none":null,"kids":[{"qty":"-3","ok":1}]}');
  });

  it('sends loosely typed lists that the mirror reads back as the documented types', async () => {
    const sim = await createSimulator({ port: 0, size: 'tiny', looseWire: true });
    try {
      const [raw] = await api(sim).list('/products?limit=1&direction=forward');
      expect(typeof raw!['_v']).toBe('string');
      expect([0, 1]).toContain(raw!['visible']);
      expect(typeof raw!['quantity_minimal']).toBe('string');
      const parsed = parseRecord('products', raw);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.record).toMatchObject({ _v: Number(raw!['_v']), visible: raw!['visible'] === 1 });
    } finally {
      await sim.close();
    }
  });
});

