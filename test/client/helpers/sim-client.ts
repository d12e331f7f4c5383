import { createClient, type Client, type ClientOptions, type RetryEvent } from '../../../src/client/index.js';
import type { Simulator } from '../../../src/simulator/index.js';
import { QUICK_RETRY } from './client-for.js';

/** A client of `sim` with quick backoff, whose retries are recorded (`onRetry`). */
export function simClient(sim: Simulator, extra: Partial<ClientOptions> = {}): { client: Client; retries: RetryEvent[] } {
  const retries: RetryEvent[] = [];
  const retry = typeof extra.retry === 'number' ? { ...QUICK_RETRY, limit: extra.retry } : { ...QUICK_RETRY, ...extra.retry };
  const client = createClient({
    baseUrl: sim.baseUrl,
    token: sim.token,
    userAgent: 'pos-cloud-mirror tests (dev@example.com)',
    onRetry: (event) => retries.push(event),
    ...extra,
    retry,
  });
  return { client, retries };
}
