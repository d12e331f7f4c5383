import { createClient, type Client, type ClientOptions, type RetryEvent, type RetryOptions } from '../../../src/client/index.js';

/** Token used by raw-server tests; long and unusual so a leak cannot hide. */
export const SECRET = 'tok_SECRET_7f3a9c1e5b';

/** Backoff waits of a millisecond or so, so that retry tests do not sleep (the server's `Retry-After` is still honoured). */
export const QUICK_RETRY: RetryOptions = { baseDelayMs: 1, backoffLimit: 5 };

/** A client for `baseUrl` with quick backoff, whose retries are recorded (`onRetry`). */
export function clientFor(baseUrl: string, extra: Partial<ClientOptions> = {}): { client: Client; retries: RetryEvent[] } {
  const retries: RetryEvent[] = [];
  const retry = typeof extra.retry === 'number' ? { ...QUICK_RETRY, limit: extra.retry } : { ...QUICK_RETRY, ...extra.retry };
  const client = createClient({
    baseUrl,
    token: SECRET,
    userAgent: 'pos-cloud-mirror tests (dev@example.com)',
    random: () => 0.5,
    onRetry: (event) => retries.push(event),
    ...extra,
    retry,
  });
  return { client, retries };
}
