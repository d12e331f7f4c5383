import { formatIssues, ValidationError, type PosCloudError, type RequestInfo, type ValidationIssue } from '../errors/index.js';

/** HTTP methods the client sends, as ky names them. */
export type RetryMethod = 'get' | 'post';

/**
 * How failed requests are retried: ky's retry options, with the defaults this service needs.
 * A plain number is the `limit`, as ky takes it.
 */
export interface RetryOptions {
  /**
   * Retries after the first try (ky's meaning): `0` turns retrying off, `4` sends a request at
   * most five times. More than ky's default of 2: a sync job rides out a restart of the service.
   * @default 4
   */
  limit?: number;
  /**
   * Methods that may be retried (ky's option). POST is among them because an idempotent POST (the
   * reports, and a batch whose every record carries its own id) is safe to repeat; a POST that
   * could create a record twice is retried only after a 429, which refuses a request before
   * applying it. Leave `'post'` out to never repeat a POST.
   * @default ['get', 'post']
   */
  methods?: RetryMethod[];
  /**
   * Statuses retried (ky's option). ky's default without 413, which the push answers itself by
   * halving its batch: the spec's 429 and 500, the gateway errors, and 408.
   * @default [408, 429, 500, 502, 503, 504]
   */
  statusCodes?: number[];
  /**
   * Statuses whose `Retry-After` is honoured (ky's option): the wait is the server's, not the backoff.
   * @default [429, 503]
   */
  afterStatusCodes?: number[];
  /**
   * Longest `Retry-After` waited for, in ms (ky's option). A response asking for longer is not
   * retried: it surfaces at once (a 429 as a `RateLimitError` whose `retryAfterMs` the caller can
   * schedule on) rather than holding a sync run for hours.
   * @default 120_000
   */
  maxRetryAfter?: number;
  /**
   * Ceiling of one backoff wait, in ms (ky's option), before jitter.
   * @default 30_000
   */
  backoffLimit?: number;
  /** The same as {@link backoffLimit} (the name of earlier versions). */
  maxDelayMs?: number;
  /**
   * The first backoff wait, in ms: wait `n` is `baseDelayMs * 2^(n-1)`, as ky's default `delay`
   * (which starts at 300 ms), capped by `backoffLimit`.
   * @default 300
   */
  baseDelayMs?: number;
  /**
   * Full jitter (ky's option): each backoff wait is drawn uniformly below its bound, so clients
   * that failed together (a 429 wave, a restart) do not come back together. ky's default is off.
   * @default true
   */
  jitter?: boolean;
}

/** What `onRetry` is told before a retry. */
export interface RetryEvent {
  /** Method and path of the request, without secrets. */
  request: RequestInfo;
  /** The failure that is retried, typed as the call would have thrown it. */
  error: PosCloudError;
  /** Which retry this is: 1 for the first. */
  retryCount: number;
}

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
   * Time limit of one try, in ms, from sending the request to the last byte of the body (ky's
   * `timeout` covers the headers; the client extends it over the body, so a server that stalls
   * mid-body is caught too). More than ky's 10 s: a 6 MB orders page on a slow link.
   * @default 30_000
   */
  timeoutMs?: number;
  /** Retry policy: a number of retries, or {@link RetryOptions}. */
  retry?: number | RetryOptions;
  /**
   * Source of jitter in [0, 1).
   * @default Math.random
   */
  random?: () => number;
  /** Told before each retry (logging, metrics, tests). */
  onRetry?: (event: RetryEvent) => void;
}

/** {@link ClientOptions} after validation, with every default filled in. */
export interface ResolvedClientOptions {
  baseUrl: string;
  token: string;
  userAgent: string;
  clientUserAgentHeader: boolean;
  fetch: typeof fetch | undefined;
  timeoutMs: number;
  retry: ResolvedRetry;
  random: () => number;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

/** {@link RetryOptions} with every default filled in (`maxDelayMs` folded into `backoffLimit`). */
export type ResolvedRetry = Required<Omit<RetryOptions, 'maxDelayMs'>>;

/** Every default of the client, in one place. */
export const CLIENT_DEFAULTS = {
  timeoutMs: 30_000,
  retry: {
    limit: 4,
    methods: ['get', 'post'],
    statusCodes: [408, 429, 500, 502, 503, 504],
    afterStatusCodes: [429, 503],
    maxRetryAfter: 120_000,
    backoffLimit: 30_000,
    baseDelayMs: 300,
    jitter: true,
  },
} as const satisfies { timeoutMs: number; retry: ResolvedRetry };

/**
 * The shortest token accepted. The token is cut out of every text an error carries, wherever it
 * appears: a one-letter token would cut letters out of host names and messages (`ENOTFOUND
 * e[redacted]ample.invalid`). A real API token is much longer.
 */
export const MIN_TOKEN_LENGTH = 8;

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
  // Callers from plain JavaScript can pass anything.
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) {
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
  if (options.onRetry !== undefined && typeof options.onRetry !== 'function') bad('onRetry', 'must be a function');
  const retry = resolveRetry(options.retry, bad);

  if (issues.length > 0) {
    throw new ValidationError(`createClient: invalid options: ${formatIssues(issues, { whole: '(options)' })}`, { issues });
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
    onRetry: options.onRetry,
  };
}

/** The retry options with defaults filled in; each bad one is reported under `retry.<name>`. */
function resolveRetry(given: unknown, bad: (path: string, message: string) => void): ResolvedRetry {
  const retry: ResolvedRetry = { ...CLIENT_DEFAULTS.retry, methods: [...CLIENT_DEFAULTS.retry.methods], statusCodes: [...CLIENT_DEFAULTS.retry.statusCodes], afterStatusCodes: [...CLIENT_DEFAULTS.retry.afterStatusCodes] };
  if (given === undefined) return retry;
  if (typeof given !== 'number' && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    bad('retry', 'must be a number of retries or an object of retry options');
    return retry;
  }
  const r: RetryOptions = typeof given === 'number' ? { limit: given } : given;
  const known = new Set(['limit', 'methods', 'statusCodes', 'afterStatusCodes', 'maxRetryAfter', 'backoffLimit', 'maxDelayMs', 'baseDelayMs', 'jitter']);
  for (const key of Object.keys(r)) if (!known.has(key)) bad(`retry.${key}`, `unknown retry option (known: ${[...known].join(', ')})`);
  if (r.limit !== undefined) {
    if (!Number.isInteger(r.limit) || r.limit < 0 || r.limit > 100) bad('retry.limit', 'must be a whole number of retries from 0 to 100 (0: no retry)');
    else retry.limit = r.limit;
  }
  if (r.methods !== undefined) {
    if (!Array.isArray(r.methods) || !r.methods.every((m: unknown) => m === 'get' || m === 'post')) bad('retry.methods', "must be an array of 'get' and 'post'");
    else retry.methods = [...r.methods];
  }
  for (const key of ['statusCodes', 'afterStatusCodes'] as const) {
    const codes = r[key];
    if (codes === undefined) continue;
    if (!Array.isArray(codes) || !codes.every((c) => Number.isInteger(c) && c >= 400 && c <= 599)) bad(`retry.${key}`, 'must be an array of HTTP error statuses (400 to 599)');
    else retry[key] = [...codes];
  }
  if (r.maxDelayMs !== undefined && r.backoffLimit !== undefined && r.maxDelayMs !== r.backoffLimit) bad('retry.maxDelayMs', 'is the same option as retry.backoffLimit: give one');
  for (const [key, value] of [['maxRetryAfter', r.maxRetryAfter], ['backoffLimit', r.backoffLimit ?? r.maxDelayMs], ['baseDelayMs', r.baseDelayMs]] as const) {
    if (value === undefined) continue;
    if (!isDelayMs(value)) bad(`retry.${key === 'backoffLimit' && r.backoffLimit === undefined ? 'maxDelayMs' : key}`, DELAY_MS_MESSAGE);
    else retry[key] = value;
  }
  if (r.jitter !== undefined) {
    if (typeof r.jitter !== 'boolean') bad('retry.jitter', 'must be true or false');
    else retry.jitter = r.jitter;
  }
  return retry;
}

/**
 * Checks an API token: a non-empty string that can travel in a header. Reports under `name`
 * without ever quoting the value.
 */
export function checkToken(token: unknown, name: string, bad: (path: string, message: string) => void): void {
  if (typeof token !== 'string' || token.trim() === '') bad(name, 'required: a non-empty string');
  else if (!HEADER_VALUE.test(token)) bad(name, 'must hold only visible ASCII characters (it is sent in the Authorization header)');
  else if (token.length < MIN_TOKEN_LENGTH) {
    bad(name, `must be at least ${MIN_TOKEN_LENGTH} characters: a shorter one is no real API token, and every error would have it cut out of its text`);
  }
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
