import { createClient, type Client, type ClientOptions } from '../../../src/client/index.js';
import type { Simulator } from '../../../src/simulator/index.js';
import { recordingSleep } from './recording-sleep.js';

/** A client of `sim` whose backoff waits are recorded instead of slept. */
export function simClient(sim: Simulator, extra: Partial<ClientOptions> = {}): { client: Client; delays: number[] } {
  const { sleep, delays } = recordingSleep();
  const client = createClient({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'pos-cloud-mirror tests (dev@example.com)', sleep, ...extra });
  return { client, delays };
}
