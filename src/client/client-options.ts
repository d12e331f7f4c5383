import { ValidationError, type ValidationIssue } from '../errors/index.js';

/** How failed requests are retried. */
export interface RetryOptions {
  /**
   * Tries per request, the first one included. `1` turns retrying off.
   * @default 5
   */
  limit?: number;
  /**
   * First backoff step in ms; step `n` is `baseDelayMs * 2^(n-1)`, then full jitter.
   * @default 300
   */
  baseDelayMs?: number;
  /**
   * Ceiling of one backoff step in ms (before jitter).
   * @default 30_000
   */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client waits for by itself, in ms. A 429 asking for longer is not
   * retried: it surfaces at once as a `RateLimitError` whose `retryAfterMs` the caller can schedule on.
   * @default 120_000
   */
  maxRetryAfterMs?: number;
}

/** Sleeps `ms` milliseconds; rejects with `signal.reason` as soon as `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** Options of `createClient`. Validated once, when the client is created. */
export interface ClientOptions {
  /** Data root of the service (`{base_url}` of the spec), `http:` or `https:`. */
  baseUrl: string;
  /** API token; sent as `Authorization: A|<token>`, never logged, stored or put in an error. */
  token: string;
  /**
   * Identification or contact of the app's developer (spec: Conventions 7). Sent as `User-Agent`
   * and, because browsers may silently drop a script-set `User-Agent`, also as `X-Client-User-Agent`.
   */
  userAgent: string;
  /**
   * Also send `userAgent` as `X-Client-User-Agent`. In a browser this custom header must be allowed
   * by the service's CORS preflight (`Access-Control-Allow-Headers`); turn it off if it is not.
   * @default true
   */
  clientUserAgentHeader?: boolean;
  /**
   * The `fetch` to send requests with (tests, proxies, Electron's net.fetch).
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Time limit of one try, in ms, from sending the request to the last byte of the body.
   * @default 30_000
   */
  timeoutMs?: number;
  /** Retry policy; see {@link RetryOptions}. */
  retry?: RetryOptions;
  /**
   * Source of jitter in [0, 1).
   * @default Math.random
   */
  random?: () => number;
  /**
   * How backoff waits; tests inject one that records the delays and returns at once.
   * @default a setTimeout-based sleep that an AbortSignal cuts short
   */
  sleep?: Sleep;
}

/** {@link ClientOptions} after validation, with every default filled in. */
export interface ResolvedClientOptions {
  baseUrl: string;
  token: string;
  userAgent: string;
  clientUserAgentHeader: boolean;
  fetch: typeof fetch | undefined;
  timeoutMs: number;
  retry: Required<RetryOptions>;
  random: () => number;
  sleep: Sleep | undefined;
}

/** Every default of the client, in one place. */
export const CLIENT_DEFAULTS = {
  timeoutMs: 30_000,
  retry: { limit: 5, baseDelayMs: 300, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 },
} as const;

/** Characters a header value may hold: visible ASCII, space and tab (RFC 9110 field-value, no obs-text). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Validates the options of `createClient` and fills in defaults. Throws one `ValidationError`
 * listing every bad option by name; the token's value is never echoed.
 */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  const issues: ValidationIssue[] = [];
  const bad = (path: string, message: string): void => {
    issues.push({ path: [path], message });
  };
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('createClient: options must be an object', { issues: [{ path: [], message: 'expected an object' }] });
  }

  const baseUrl = checkBaseUrl(options.baseUrl, bad);
  checkToken(options.token, 'token', bad);
  if (typeof options.userAgent !== 'string' || options.userAgent.trim() === '') {
    bad('userAgent', 'required: a non-empty string identifying the app or its developer');
  } else if (!HEADER_VALUE.test(options.userAgent)) {
    bad('userAgent', 'must hold only visible ASCII characters and spaces (it is sent as a header)');
  }
  if (options.clientUserAgentHeader !== undefined && typeof options.clientUserAgentHeader !== 'boolean') {
    bad('clientUserAgentHeader', 'must be true or false');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') bad('fetch', 'must be a function');
  if (options.timeoutMs !== undefined && !isPositiveMs(options.timeoutMs)) bad('timeoutMs', POSITIVE_MS_MESSAGE);
  if (options.random !== undefined && typeof options.random !== 'function') bad('random', 'must be a function');
  if (options.sleep !== undefined && typeof options.sleep !== 'function') bad('sleep', 'must be a function');

  const retry: Required<RetryOptions> = { ...CLIENT_DEFAULTS.retry };
  if (options.retry !== undefined) {
    if (typeof options.retry !== 'object' || options.retry === null) bad('retry', 'must be an object');
    else {
      const r = options.retry;
      if (r.limit !== undefined) {
        if (!Number.isInteger(r.limit) || r.limit < 1) bad('retry.limit', 'must be an integer >= 1 (tries, the first included)');
        else retry.limit = r.limit;
      }
      for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
        const value = r[key];
        if (value === undefined) continue;
        if (!isDelayMs(value)) bad(`retry.${key}`, DELAY_MS_MESSAGE);
        else retry[key] = value;
      }
    }
  }

  if (issues.length > 0) {
    throw new ValidationError(`createClient: invalid options: ${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, { issues });
  }
  return {
    baseUrl,
    token: options.token,
    userAgent: options.userAgent,
    clientUserAgentHeader: options.clientUserAgentHeader ?? true,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs,
    retry,
    random: options.random ?? Math.random,
    sleep: options.sleep,
  };
}

/**
 * Checks an API token: a non-empty string that can travel in a header. Reports under `name`
 * without ever quoting the value.
 */
export function checkToken(token: unknown, name: string, bad: (path: string, message: string) => void): void {
  if (typeof token !== 'string' || token.trim() === '') bad(name, 'required: a non-empty string');
  else if (!HEADER_VALUE.test(token)) bad(name, 'must hold only visible ASCII characters (it is sent in the Authorization header)');
}

/**
 * Longest delay a timer can wait: `setTimeout` takes a signed 32-bit count of ms (about 24.8 days)
 * and fires at once for anything longer. Every option that ends up in a timer is checked against it.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a bad time limit (`timeoutMs`) is told, wherever it is checked. */
export const POSITIVE_MS_MESSAGE = `must be a number of ms > 0 and at most ${MAX_TIMER_MS} (the timer limit, about 24.8 days)`;

/** What a bad delay that may be 0 is told. */
export const DELAY_MS_MESSAGE = `must be a number of ms >= 0 and at most ${MAX_TIMER_MS} (the timer limit, about 24.8 days)`;

/** True for a valid time limit in ms: a number > 0, at most {@link MAX_TIMER_MS}. */
export function isPositiveMs(value: unknown): boolean {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
}

/** True for a valid delay in ms: a number >= 0, at most {@link MAX_TIMER_MS}. */
export function isDelayMs(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= MAX_TIMER_MS;
}

function checkBaseUrl(value: unknown, bad: (path: string, message: string) => void): string {
  if (typeof value !== 'string' || value === '') {
    bad('baseUrl', 'required: an http(s) URL');
    return '';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    bad('baseUrl', `not a URL: ${JSON.stringify(value.slice(0, 100))}`);
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') bad('baseUrl', `must be http or https, got ${url.protocol}`);
  if (url.username !== '' || url.password !== '') bad('baseUrl', 'must not carry credentials; the token goes in `token`');
  if (url.search !== '' || url.hash !== '') bad('baseUrl', 'must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}
