import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client, RecordPage } from '../../src/client/index.js';
import { NetworkError, TimeoutError } from '../../src/errors/index.js';
import { compareIds } from '../../src/ids/id.js';
import type { CollectionName } from '../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { simClient } from './helpers/sim-client.js';

const READ_SET: CollectionName[] = ['products', 'customers', 'orders', 'order_details', 'stock_history'];

async function idsOf(client: Client, collection: CollectionName): Promise<string[]> {
  const ids: string[] = [];
  const pages: AsyncIterable<RecordPage<{ id: string }>> = client.pages(collection, { limit: 9, direction: 'forward' });
  for await (const page of pages) ids.push(...page.map((r) => r.id));
  return ids;
}

function storeIds(sim: Simulator, collection: CollectionName): string[] {
  return sim.store.list(collection).map((r) => r.id as string).sort(compareIds);
}

describe('client under the simulator\'s fault knobs', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ size: 'tiny', seed: 5 });
  });
  afterEach(() => sim.setFaults({}));
  afterAll(() => sim.close());

  it.each([
    ['errorRate', { errorRate: 0.3 }, 'error'],
    ['dropRate', { dropRate: 0.25 }, 'dropped'],
    ['truncateRate', { truncateRate: 0.3 }, 'truncated'],
    ['extra429Rate', { extra429Rate: 0.3 }, 'rate_limited'],
  ] as const)('completes every traversal exactly under %s, retrying what failed', async (_knob, faults, fault) => {
    sim.setFaults(faults);
    // Quick backoff in place of the 1 s the injected 429s ask for (their Retry-After has tests of its own).
    const { client, retries } = simClient(sim, { retry: { limit: 12, afterStatusCodes: [] } });
    sim.requests.clear();
    for (const collection of READ_SET) expect(await idsOf(client, collection), collection).toEqual(storeIds(sim, collection));
    const injected = sim.requests.recent().filter((r) => r.fault === fault).length;
    expect(injected).toBeGreaterThan(0);
    expect(retries.length).toBeGreaterThan(0); // orders pages failing with 500 shrink instead of waiting
  });

  it('waits out the token-bucket rate limit as the server asks, with the 429s it answers', async () => {
    sim.setFaults({ rateLimitPerSecond: 20, rateLimitBurst: 1 });
    const { client, retries } = simClient(sim, { retry: { limit: 20 } });
    const started = performance.now();
    expect(await idsOf(client, 'customers')).toEqual(storeIds(sim, 'customers'));
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.error.name === 'RateLimitError')).toBe(true);
    // Each 429 asked for a second (Retry-After: 1), and the client waited it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(retries.length * 990);
  });

  it('times out a slow server with a short timeout, and waits for it with a long one', async () => {
    sim.setFaults({ latencyMs: 150 });
    const { client: impatient, retries } = simClient(sim, { timeoutMs: 30, retry: { limit: 1 } });
    const error = await impatient.list('shops').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(retries).toHaveLength(1);
    const { client: patient } = simClient(sim, { timeoutMs: 5_000 });
    await expect(patient.list('shops')).resolves.toHaveLength(sim.store.count('shops'));
  });

  it('repeats a POST lost on the way back only when every record carries its id', async () => {
    const customers = sim.store.list('customers').slice(0, 2) as { id: string }[];
    sim.setFaults({ dropRate: 1 });
    const { client } = simClient(sim, { retry: { limit: 2 } });
    await expect(client.save('customers', customers.map((c) => ({ ...c, note: 'x' })))).rejects.toBeInstanceOf(NetworkError);
    expect(sim.requests.timesPosted('customers', customers[0]?.id ?? '')).toBe(3);
    const before = sim.store.count('warehouses');
    await expect(client.save('warehouses', { name: 'Lost ack' })).rejects.toBeInstanceOf(NetworkError);
    expect(sim.store.count('warehouses')).toBe(before + 1); // applied once, never repeated
  });

  it('shrinks orders pages the server refuses as over its size cap, and reads them all', async () => {
    sim.setOptions({ ordersMaxBytes: 20_000 });
    try {
      const { client, retries } = simClient(sim);
      const ids: string[] = [];
      for await (const page of client.pages('orders', { limit: 2000, direction: 'forward' })) ids.push(...page.map((r) => r.id));
      expect(ids).toEqual(storeIds(sim, 'orders'));
      expect(sim.requests.recent().some((r) => r.status === 500 && r.route === 'GET /orders')).toBe(true);
      expect(retries).toEqual([]);
    } finally {
      sim.setOptions({ ordersMaxBytes: 6 * 1024 * 1024 });
    }
  });
});
