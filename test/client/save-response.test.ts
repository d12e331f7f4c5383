import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { simClient } from './helpers/sim-client.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('save and its response', () => {
  it('returns the parsed answer by default', async () => {
    sim = await createSimulator({ size: 'tiny', seed: 4 });
    const { client } = simClient(sim);
    const customer = sim.store.list('customers')[0]!;
    const answer = (await client.save('customers', [{ ...customer, note: 'read back' }])) as { id: string }[];
    expect(Array.isArray(answer)).toBe(true);
    expect(String(answer[0]!.id)).toBe(String(customer.id));
  });

  it('with readResponse false, takes the success status as the answer and leaves the body unparsed', async () => {
    sim = await createSimulator({ size: 'tiny', seed: 4 });
    const { client } = simClient(sim);
    const customer = sim.store.list('customers')[0]!;
    const id = String(customer.id);
    await expect(client.save('customers', [{ ...customer, note: 'status only' }], { readResponse: false })).resolves.toBeUndefined();
    expect(sim.store.get('customers', id)?.note).toBe('status only');
    // A success whose body arrives cut off is still an acknowledgement: nothing is sent again.
    sim.setFaults({ truncateRate: 1 });
    await expect(client.save('customers', [{ ...customer, note: 'cut answer' }], { readResponse: false })).resolves.toBeUndefined();
    expect(sim.requests.timesPosted('customers', id)).toBe(2);
    expect(sim.store.get('customers', id)?.note).toBe('cut answer');
  });
});
