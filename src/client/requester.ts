import { JsonParseError, isJsonParseError, type RequestInfo } from '../errors/index.js';
import { parseJsonBytes } from '../json/index.js';
import type { ResolvedClientOptions } from './client-options.js';
import { abortableSleep } from './abortable-sleep.js';
import { redact, safeCause } from './redact.js';
import { errorForResponse } from './response-error.js';
import { createRetryer } from './retryer.js';
import { retryDelayFor, shouldRetryRequest } from './retry-policy.js';
import { bodyText, type RequestSpec, type Transport } from './transport.js';

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

/**
 * Creates the requester: transport, status mapping, retry policy and strict JSON reading in one
 * step. Every failure is typed (see `errorForResponse`, `createTransport`); a body that is not
 * JSON is a `JsonParseError` naming method and path, retried like a dropped connection.
 */
export function createRequester(transport: Transport, options: ResolvedClientOptions): Requester {
  const backoff = { baseDelayMs: options.retry.baseDelayMs, maxDelayMs: options.retry.maxDelayMs, random: options.random };
  const sleep = options.sleep ?? abortableSleep;

  return async (spec, policy, call = {}) => {
    const context = { idempotent: policy.idempotent, maxRetryAfterMs: options.retry.maxRetryAfterMs };
    const retry = createRetryer({
      tries: options.retry.limit,
      shouldRetry: (error) => !policy.giveUpOn?.(error) && shouldRetryRequest(error, context),
      delayFor: (error, failures) => retryDelayFor(error, failures, backoff),
      sleep,
    });
    const timeoutMs = call.timeoutMs ?? options.timeoutMs;

    return retry(async () => {
      const raw = await transport.send(spec, { signal: call.signal, timeoutMs });
      if (raw.status < 200 || raw.status > 299) throw errorForResponse(raw, raw.sentToken, Date.now());
      const date = raw.headers.get('date');
      const parsedDate = date === null ? Number.NaN : Date.parse(date);
      return {
        value: policy.ignoreBody ? undefined : readJson(raw.body, raw.request, policy.allowEmpty === true, raw.sentToken),
        bytes: raw.body.byteLength,
        serverTime: Number.isNaN(parsedDate) ? undefined : parsedDate,
        request: raw.request,
      };
    }, call.signal);
  };
}

function readJson(body: Uint8Array, request: RequestInfo, allowEmpty: boolean, token: string): unknown {
  const where = `${request.method} ${request.path}`;
  if (isBlank(body)) {
    if (allowEmpty) return undefined;
    throw new JsonParseError(`the response of ${where} has an empty body, expected JSON`, { position: 0, request });
  }
  try {
    return parseJsonBytes(body);
  } catch (error) {
    if (!isJsonParseError(error)) throw error;
    throw new JsonParseError(`the response of ${where} is not valid JSON: ${redact(error.message, token)}`, {
      position: error.position,
      request,
      cause: safeCause(error, token),
    });
  }
}

/** True when the body holds nothing but whitespace (as `String.prototype.trim` sees it). */
function isBlank(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 32 || (byte >= 9 && byte <= 13)) continue; // space, \t \n \v \f \r
    // Past ASCII, trim() knows more whitespace (NBSP, U+2028, a BOM...): ask it.
    return byte < 0x80 ? false : bodyText(body).trim() === '';
  }
  return true;
}
