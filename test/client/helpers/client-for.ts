import { createClient, type Client, type ClientOptions } from '../../../src/client/index.js';
import { recordingSleep } from './recording-sleep.js';

/** Token used by raw-server tests; long and unusual so a leak cannot hide. */
export const SECRET = 'tok_SECRET_7f3a9c1e5b';

/** A client for `baseUrl` whose backoff waits are recorded instead of slept. */
export function clientFor(baseUrl: string, extra: Partial<ClientOptions> = {}): { client: Client; delays: number[] } {
  const { sleep, delays } = recordingSleep();
  const client = createClient({ baseUrl, token: SECRET, userAgent: 'pos-cloud-mirror tests (dev@example.com)', sleep, random: () => 0.5, ...extra });
  return { client, delays };
}
