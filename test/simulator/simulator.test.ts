import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidationError } from '../../src/errors/index.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api } from './helpers.js';

describe('createSimulator', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ seed: 3 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('listens on 127.0.0.1 on an ephemeral port under the default base path', () => {
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(sim.port).toBeGreaterThan(0);
  });

  it('derives the token from the seed when none is given', async () => {
    const again = await createSimulator({ seed: 3 });
    const other = await createSimulator({ seed: 4 });
    try {
      expect(again.token).toBe(sim.token);
      expect(other.token).not.toBe(sim.token);
    } finally {
      await again.close();
      await other.close();
    }
  });

  it('serves under a configured base path and nowhere else', async () => {
    const custom = await createSimulator({ basePath: '/pos/v2/', token: 'secret-token' });
    try {
      expect(custom.baseUrl.endsWith('/pos/v2')).toBe(true);
      expect((await api(custom).get('/shops')).status).toBe(200);
      const outside = await fetch(custom.baseUrl.replace('/pos/v2', '/api/v1') + '/shops', { headers: { authorization: 'A|secret-token' } });
      expect(outside.status).toBe(404);
    } finally {
      await custom.close();
    }
  });

  it('refuses bad options with a ValidationError naming each', async () => {
    const error = await createSimulator({ port: -1, basePath: 'no-slash', faults: { errorRate: 2, bogus: 1 } as never, postResponse: 'xml' as never }).catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    const paths = (error as { issues: { path: unknown[] }[] }).issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['port', 'basePath']));
    await expect(createSimulator({ size: 'huge' as never })).rejects.toThrow(/size/);
    await expect(createSimulator({ size: { orders: -1 } })).rejects.toThrow(/orders/);
    await expect(createSimulator({ faults: { errorRate: 2 } })).rejects.toThrow(/errorRate/);
    await expect(createSimulator({ clock: { start: 5 } })).rejects.toThrow(/clock/);
  });

  it('refuses fault knobs named like Object.prototype members as unknown', async () => {
    for (const key of ['toString', 'constructor', 'hasOwnProperty']) {
      const error = await createSimulator({ faults: { [key]: 0.5 } as never }).catch((e: unknown) => e);
      expect(isValidationError(error), key).toBe(true);
      expect((error as { issues: { path: unknown[]; message: string }[] }).issues).toEqual([{ path: ['faults', key], message: 'unknown fault knob' }]);
    }
    expect(() => sim.setFaults({ toString: 0.5 } as never)).toThrow(/faults\.toString: unknown fault knob/);
    expect(Object.hasOwn(sim.faults, 'toString')).toBe(false);
  });

  it('validates switches and fault knobs changed at run time', () => {
    expect(() => sim.setOptions({ postResponse: 'xml' as never })).toThrow(/postResponse/);
    expect(() => sim.setFaults({ dropRate: -1 })).toThrow(/dropRate/);
    sim.setOptions({ idsAsStrings: true });
    expect(sim.options.idsAsStrings).toBe(true);
    expect(sim.options.postResponse).toBe('records');
    sim.setOptions({ idsAsStrings: false });
    sim.setFaults({ latencyMs: 1 });
    expect(sim.faults.latencyMs).toBe(1);
    sim.setFaults({});
    expect(sim.faults.latencyMs).toBe(0);
  });

  it('closes idempotently and refuses connections afterwards', async () => {
    const short = await createSimulator();
    const url = short.baseUrl;
    await short.close();
    await short.close();
    await expect(fetch(`${url}/shops`)).rejects.toThrow();
  });
});
