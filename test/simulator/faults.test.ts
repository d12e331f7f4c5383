import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api } from './helpers.js';

/** Status of each of n sequential GETs; 0 when the connection was dropped. */
async function statuses(sim: Simulator, n: number, path = '/shops'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    try {
      const response = await fetch(sim.baseUrl + path, { headers: { authorization: `A|${sim.token}`, connection: 'close' } });
      await response.arrayBuffer();
      out.push(response.status);
    } catch {
      out.push(0);
    }
  }
  return out;
}

describe('fault knobs', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ seed: 17 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('answers about errorRate of requests 500 with a JSON body, before applying anything', async () => {
    sim.setFaults({ errorRate: 0.3 });
    try {
      const got = await statuses(sim, 200);
      const errors = got.filter((s) => s === 500).length;
      expect(errors).toBeGreaterThan(35);
      expect(errors).toBeLessThan(85);
      expect(got.filter((s) => s !== 500).every((s) => s === 200)).toBe(true);
      const count = sim.store.count('products');
      let failed = 0;
      for (let i = 0; i < 30; i++) {
        const answer = await api(sim).post('/products', { _t: 'products', name: 'x', date_updated: 1 });
        if (answer.status === 500) {
          failed++;
          expect(answer.json).toMatchObject({ error: 'internal' });
        }
      }
      expect(failed).toBeGreaterThan(0);
      expect(sim.store.count('products')).toBe(count + 30 - failed);
    } finally {
      sim.setFaults({});
    }
  });

  it('gives the same fault sequence for the same seed', async () => {
    const a = await createSimulator({ seed: 99, faults: { errorRate: 0.3, extra429Rate: 0.2 } });
    const b = await createSimulator({ seed: 99, faults: { errorRate: 0.3, extra429Rate: 0.2 } });
    const c = await createSimulator({ seed: 100, faults: { errorRate: 0.3, extra429Rate: 0.2 } });
    try {
      const [sa, sb, sc] = [await statuses(a, 60), await statuses(b, 60), await statuses(c, 60)];
      expect(sa).toEqual(sb);
      expect(sa).not.toEqual(sc);
      expect(new Set(sa)).toEqual(new Set([200, 429, 500]));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('rate-limits with a token bucket: 429 with Retry-After once the burst is spent', async () => {
    const limited = await createSimulator({ faults: { rateLimitPerSecond: 0.01, rateLimitBurst: 3 } });
    try {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await api(limited).get('/shops'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
      const retryAfter = Number(answers[3]?.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(100);
      expect(answers[3]?.json).toMatchObject({ error: 'rate_limited', retry_after: retryAfter });
      expect(limited.requests.recent().filter((r) => r.fault === 'rate_limited')).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it('adds random 429s, half with Retry-After and half without', async () => {
    sim.setFaults({ extra429Rate: 0.5 });
    try {
      let withHeader = 0;
      let without = 0;
      for (let i = 0; i < 120; i++) {
        const answer = await api(sim).get('/shops');
        if (answer.status !== 429) continue;
        if (answer.headers.get('retry-after') === null) without++;
        else withHeader++;
      }
      expect(withHeader + without).toBeGreaterThan(35);
      expect(withHeader).toBeGreaterThan(10);
      expect(without).toBeGreaterThan(10);
    } finally {
      sim.setFaults({});
    }
  });

  it('drops about dropRate of connections without an answer, after applying a POST', async () => {
    sim.setFaults({ dropRate: 0.4 });
    try {
      const got = await statuses(sim, 100);
      const dropped = got.filter((s) => s === 0).length;
      expect(dropped).toBeGreaterThan(20);
      expect(dropped).toBeLessThan(60);
      expect(sim.requests.recent(100).filter((r) => r.fault === 'dropped')).toHaveLength(dropped);
      const count = sim.store.count('products');
      let lost = 0;
      for (let i = 0; i < 20; i++) {
        try {
          await api(sim).post('/products', { _t: 'products', name: 'x', date_updated: 1 }, { connection: 'close' });
        } catch {
          lost++;
        }
      }
      expect(lost).toBeGreaterThan(0);
      expect(sim.store.count('products')).toBe(count + 20);
    } finally {
      sim.setFaults({});
    }
  });

  it('truncates about truncateRate of bodies mid-JSON with an honest Content-Length', async () => {
    const big = await createSimulator({ size: 'small', seed: 4, faults: { truncateRate: 0.5 } });
    try {
      let truncated = 0;
      for (let i = 0; i < 40; i++) {
        const response = await fetch(`${big.baseUrl}/orders?limit=20`, { headers: { authorization: `A|${big.token}` } });
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(response.status).toBe(200);
        expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
        try {
          JSON.parse(bytes.toString('utf8'));
        } catch {
          truncated++;
          expect(bytes.toString('latin1').startsWith('[{"id":')).toBe(true);
        }
      }
      expect(truncated).toBeGreaterThan(8);
      expect(truncated).toBeLessThan(32);
      expect(big.requests.recent().filter((r) => r.fault === 'truncated')).toHaveLength(truncated);
    } finally {
      await big.close();
    }
  });

  it('delays every answer by latencyMs', async () => {
    sim.setFaults({ latencyMs: 60 });
    try {
      const started = performance.now();
      expect((await api(sim).get('/shops')).status).toBe(200);
      // A lower bound only: a timer never fires meaningfully early.
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    } finally {
      sim.setFaults({});
    }
  });

  it('counts each kind of fault it injected, however many requests the log keeps', async () => {
    const counted = await createSimulator({ seed: 8, logSize: 5 });
    try {
      counted.setFaults({ errorRate: 0.3, latencyMs: 1 });
      const got = await statuses(counted, 40);
      counted.setFaults({ dropRate: 0.3 });
      const dropped = (await statuses(counted, 40)).filter((s) => s === 0).length;
      expect(counted.requests.faultCounts()).toEqual({ rate_limited: 0, error: got.filter((s) => s === 500).length, dropped, truncated: 0, delayed: 40 });
      expect(got.filter((s) => s === 500).length).toBeGreaterThan(3);
      expect(dropped).toBeGreaterThan(3);
      counted.requests.clear();
      expect(counted.requests.faultCounts()).toEqual({ rate_limited: 0, error: 0, dropped: 0, truncated: 0, delayed: 0 });
    } finally {
      await counted.close();
    }
  });

  it('still applies a POST its client gave up on, and idle() waits for it', async () => {
    sim.setFaults({ latencyMs: 150 });
    try {
      const count = sim.store.count('warehouses');
      const abort = new AbortController();
      const sent = fetch(`${sim.baseUrl}/warehouses`, {
        method: 'POST',
        headers: { authorization: `A|${sim.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ _t: 'warehouses', name: 'given up on' }),
        signal: abort.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 40));
      abort.abort();
      await expect(sent).rejects.toThrow();
      expect(sim.store.count('warehouses')).toBe(count); // still waiting out its latency
      await sim.idle();
      expect(sim.store.count('warehouses')).toBe(count + 1);
      await sim.idle(); // nothing under way: at once
    } finally {
      sim.setFaults({});
    }
  });
});
