import ky, { HTTPError, type KyInstance } from 'ky';
import type { PosCloudError, RequestInfo } from '../errors/index.js';
import type { ResolvedClientOptions } from './client-options.js';
import { errorOfTry } from './fetch-errors.js';
import { describePath, type RequestSpec } from './request-spec.js';
import { readJson } from './response-body.js';
import { errorForResponse } from './response-error.js';
import { parseRetryAfter } from './retry-after.js';
import { shouldRetryRequest, type RetryContext } from './retry-policy.js';

export type { RequestSpec };

/** Per-call options every endpoint takes. */
export interface CallOptions {
  /** Aborting it rejects the call promptly with the signal's `reason` (by default a DOMException named `AbortError`). */
  signal?: AbortSignal;
  /** Time limit of each try of this call, in ms; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
}

/** How one request may be retried and read. */
export interface RequestPolicy {
  /** See `RetryContext.idempotent`. */
  idempotent: boolean;
  /** Errors to give up on at once instead of retrying (the orders pager shrinks its page on a size failure instead). */
  giveUpOn?: (error: unknown) => boolean;
  /** An empty body is a valid answer (`undefined`) rather than a `JsonParseError`. */
  allowEmpty?: boolean;
  /** The status is the whole answer: the body is read off the wire but not parsed (`value` is `undefined`). */
  ignoreBody?: boolean;
}

/** A successful response, its body parsed. */
export interface JsonResponse {
  /** The body, parsed strictly (unsafe integers as exact decimal strings); `undefined` for an allowed empty body. */
  value: unknown;
  /** Size of the body in bytes. */
  bytes: number;
  /** The server's clock from the `Date` header, in ms (1 s resolution), when it sent one. */
  serverTime: number | undefined;
  request: RequestInfo;
}

/** Sends a request with retries and returns its parsed body. */
export type Requester = (spec: RequestSpec, policy: RequestPolicy, call?: CallOptions) => Promise<JsonResponse>;

/** What {@link createRequester} needs besides the resolved options. */
export interface RequesterConfig {
  options: ResolvedClientOptions;
  /** The token now (it may change between calls: `setToken`). */
  getToken(): string;
}

/** The answer statuses whose body a `Response` may not carry. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Creates the requester: ky sends, times out and retries (its `retry` options: limit, methods,
 * statusCodes, afterStatusCodes with `Retry-After`, maxRetryAfter, backoff with jitter and
 * backoffLimit, abortable waits). Around the `fetch` ky calls, the client reads each answer
 * whole (so ky's time limit covers the body, not only the headers: a server that stalls mid-body
 * is a timeout too) and parses a success strictly (a body cut or garbled on its way is a
 * `JsonParseError`, which ky retries like a dropped connection). The client types every failure
 * (`errorForResponse`, `errorOfTry`: ky's own errors, which carry the request's headers and token,
 * never leave it) and decides which may be retried at all (`shouldRetryRequest`: a POST that could
 * create a record twice is not).
 *
 * A `Retry-After` given as an HTTP date is read against the response's own `Date` header, not the
 * local clock as ky reads it, and handed to ky as the seconds it means.
 */
export function createRequester(config: RequesterConfig): Requester {
  const { options } = config;
  const api: KyInstance = ky.create({ prefixUrl: options.baseUrl, throwHttpErrors: true });
  const send: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const agentHeaders: Record<string, string> = { 'user-agent': options.userAgent };
  if (options.clientUserAgentHeader) agentHeaders['x-client-user-agent'] = options.userAgent;
  const { retry } = options;
  const retryOptions = {
    limit: retry.limit,
    methods: retry.methods,
    statusCodes: retry.statusCodes,
    afterStatusCodes: retry.afterStatusCodes,
    maxRetryAfter: retry.maxRetryAfter,
    backoffLimit: retry.backoffLimit,
    delay: (attempt: number) => retry.baseDelayMs * 2 ** Math.min(attempt - 1, 30),
    ...(retry.jitter ? { jitter: (delay: number) => options.random() * delay } : {}),
    retryOnTimeout: true,
  };

  return async (spec, policy, call = {}) => {
    const path = describePath(spec);
    const request: RequestInfo = { method: spec.method, path };
    if (call.signal?.aborted) throw call.signal.reason;
    const token = config.getToken();
    const timeoutMs = call.timeoutMs ?? options.timeoutMs;
    const context: RetryContext = { idempotent: policy.idempotent, statusCodes: retry.statusCodes, maxRetryAfter: retry.maxRetryAfter };
    // Per call: the bodies of failed answers (ky's HTTPError keeps the response, not its bytes),
    // and what a successful try read.
    const failedBodies = new WeakMap<Response, Uint8Array>();
    let answer: JsonResponse | undefined;

    /** What a try threw, typed as the call throws it. */
    const typed = (error: unknown): PosCloudError => {
      if (error instanceof HTTPError) {
        const response = error.response as Response;
        const body = failedBodies.get(response) ?? new Uint8Array();
        return errorForResponse({ status: response.status, headers: response.headers, body, request }, token, Date.now());
      }
      return errorOfTry(error, request, token, timeoutMs);
    };

    /** One try: fetch, the whole body read, a success parsed; a failure handed back to ky with its body. */
    const fetchWhole = async (input: RequestInfoLike, init?: RequestInit): Promise<Response> => {
      const response = await send(input, init);
      const body = new Uint8Array(await response.arrayBuffer());
      if (response.ok) {
        const value = policy.ignoreBody ? undefined : readJson(body, request, policy.allowEmpty === true, token);
        const date = response.headers.get('date');
        const serverTime = date === null ? Number.NaN : Date.parse(date);
        answer = { value, bytes: body.byteLength, serverTime: Number.isNaN(serverTime) ? undefined : serverTime, request };
        return new Response(null, { status: 204 });
      }
      const copy = new Response(NULL_BODY_STATUSES.has(response.status) || body.byteLength === 0 ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: withRetryAfterInSeconds(response.headers),
      });
      failedBodies.set(copy, body);
      return copy;
    };

    try {
      await api(path.slice(1), {
        method: spec.method,
        ...(call.signal ? { signal: call.signal } : {}),
        timeout: timeoutMs,
        fetch: fetchWhole,
        headers: { authorization: `A|${token}`, accept: 'application/json', 'content-type': 'application/json', ...agentHeaders },
        ...(spec.body === undefined ? {} : { body: spec.body }),
        retry: {
          ...retryOptions,
          // Refuses what may not be repeated; what may is left to ky (statuses, Retry-After, backoff).
          shouldRetry: ({ error }) => {
            if (call.signal?.aborted) return false;
            const failure = typed(error);
            return policy.giveUpOn?.(failure) || !shouldRetryRequest(failure, context) ? false : undefined;
          },
        },
        hooks: {
          beforeRetry: [({ error, retryCount }) => options.onRetry?.({ request, error: typed(error), retryCount })],
        },
      });
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      throw typed(error);
    }
    if (answer === undefined) throw errorOfTry(new Error('no answer was read'), request, token, timeoutMs);
    return answer;
  };
}

/** What `fetch` takes as its first argument. */
type RequestInfoLike = Parameters<typeof fetch>[0];

/**
 * `headers`, with a `Retry-After` given as an HTTP date turned into the seconds it means, measured
 * against the response's `Date` (so a skewed device clock neither stretches nor cancels the wait);
 * ky reads seconds as they are.
 */
function withRetryAfterInSeconds(headers: Headers): Headers {
  const value = headers.get('retry-after');
  if (value === null || /^\s*[0-9]+\s*$/.test(value)) return headers;
  const wait = parseRetryAfter(value, headers.get('date'), Date.now());
  const out = new Headers(headers);
  if (wait === undefined) out.delete('retry-after');
  else out.set('retry-after', String(Math.ceil(wait / 1000)));
  return out;
}
