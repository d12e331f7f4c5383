import { z } from 'zod';
import { type PosCloudError, type RequestInfo } from '../errors/index.js';
import { fnOption, listOf, parseOptionsOrThrow, withRules } from '../schema/option-schema.js';
import { delayMs, positiveMs } from '../schema/timer-limit.js';

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

const TOKEN_REQUIRED = 'required: a non-empty string';

/** An API token: a non-empty string that can travel in a header. Its messages never quote the value. */
const tokenSchema = z
  .string({ error: TOKEN_REQUIRED })
  .refine((token) => token.trim() !== '', { error: TOKEN_REQUIRED, abort: true })
  .regex(HEADER_VALUE, { error: 'must hold only visible ASCII characters (it is sent in the Authorization header)', abort: true })
  .min(MIN_TOKEN_LENGTH, `must be at least ${MIN_TOKEN_LENGTH} characters: a shorter one is no real API token, and every error would have it cut out of its text`);

const USER_AGENT_REQUIRED = 'required: a non-empty string identifying the app or its developer';

const userAgentSchema = z
  .string({ error: USER_AGENT_REQUIRED })
  .refine((agent) => agent.trim() !== '', { error: USER_AGENT_REQUIRED, abort: true })
  .regex(HEADER_VALUE, 'must hold only visible ASCII characters and spaces (it is sent as a header)');

/** The data root, without its trailing slashes. Every rule it breaks is reported, not only the first. */
const baseUrlSchema = z
  .string({ error: 'required: an http(s) URL' })
  .min(1, 'required: an http(s) URL')
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `not a URL: ${JSON.stringify(value.slice(0, 100))}` });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: `must be http or https, got ${url.protocol}` });
    if (url.username !== '' || url.password !== '') ctx.addIssue({ code: 'custom', message: 'must not carry credentials; the token goes in `token`' });
    if (url.search !== '' || url.hash !== '') ctx.addIssue({ code: 'custom', message: 'must not carry a query or fragment' });
    return url.href.replace(/\/+$/, '');
  });

const trueOrFalse = z.boolean({ error: 'must be true or false' });
const RETRY_LIMIT_MESSAGE = 'must be a whole number of retries from 0 to 100 (0: no retry)';
const STATUSES_MESSAGE = 'must be an array of HTTP error statuses (400 to 599)';
const httpErrorStatus = z.int().min(400).max(599);
const { retry: retryDefaults } = CLIENT_DEFAULTS;

const retryShape = {
  limit: z.int({ error: RETRY_LIMIT_MESSAGE }).min(0, RETRY_LIMIT_MESSAGE).max(100, RETRY_LIMIT_MESSAGE).default(retryDefaults.limit),
  methods: listOf(z.enum(['get', 'post']), "must be an array of 'get' and 'post'").default(() => [...retryDefaults.methods]),
  statusCodes: listOf(httpErrorStatus, STATUSES_MESSAGE).default(() => [...retryDefaults.statusCodes]),
  afterStatusCodes: listOf(httpErrorStatus, STATUSES_MESSAGE).default(() => [...retryDefaults.afterStatusCodes]),
  maxRetryAfter: delayMs.default(retryDefaults.maxRetryAfter),
  backoffLimit: delayMs.optional(),
  maxDelayMs: delayMs.optional(),
  baseDelayMs: delayMs.default(retryDefaults.baseDelayMs),
  jitter: trueOrFalse.default(retryDefaults.jitter),
} satisfies Record<keyof RetryOptions, z.ZodType>;

/** {@link RetryOptions}, or a number as ky takes it (the `limit`); every default filled in, `maxDelayMs` folded into `backoffLimit`. */
const retrySchema = z.preprocess(
  (given) => (given === undefined ? {} : typeof given === 'number' ? { limit: given } : given),
  withRules(
    z.strictObject(retryShape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown retry option (known: ${Object.keys(retryShape).join(', ')})`
          : 'must be a number of retries or an object of retry options',
    }),
    (retry) =>
      retry.maxDelayMs !== undefined && retry.backoffLimit !== undefined && retry.maxDelayMs !== retry.backoffLimit
        ? [{ path: ['maxDelayMs'], message: 'is the same option as retry.backoffLimit: give one' }]
        : [],
  )
    .transform(({ maxDelayMs, backoffLimit, ...retry }): ResolvedRetry => ({
      ...retry,
      methods: [...retry.methods],
      statusCodes: [...retry.statusCodes],
      afterStatusCodes: [...retry.afterStatusCodes],
      backoffLimit: backoffLimit ?? maxDelayMs ?? retryDefaults.backoffLimit,
    })),
);

/** The options of `createClient`, with every rule and every default. */
const clientOptionsSchema = z.object(
  {
    baseUrl: baseUrlSchema,
    token: tokenSchema,
    userAgent: userAgentSchema,
    clientUserAgentHeader: trueOrFalse.default(true),
    fetch: fnOption<typeof fetch>().optional(),
    timeoutMs: positiveMs.default(CLIENT_DEFAULTS.timeoutMs),
    random: fnOption<() => number>().default(() => Math.random),
    onRetry: fnOption<(event: RetryEvent) => void>().optional(),
    retry: retrySchema,
  } satisfies Record<keyof ClientOptions, z.ZodType>,
  { error: 'expected an object' },
);

/**
 * Validates the options of `createClient` and fills in defaults. Throws one `ValidationError`
 * listing every bad option by name; the token's value is never echoed.
 */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  const value = parseOptionsOrThrow(clientOptionsSchema, options, { factory: 'createClient', heading: 'invalid options', notAnObject: true });
  return {
    baseUrl: value.baseUrl,
    token: value.token,
    userAgent: value.userAgent,
    clientUserAgentHeader: value.clientUserAgentHeader,
    fetch: value.fetch,
    timeoutMs: value.timeoutMs,
    retry: value.retry,
    random: value.random,
    onRetry: value.onRetry,
  };
}

/** Checks an API token, reporting under `name` without ever quoting the value. */
export function checkToken(token: unknown, name: string, bad: (path: string, message: string) => void): void {
  const result = tokenSchema.safeParse(token);
  if (!result.success) for (const issue of result.error.issues) bad(name, issue.message);
}
