import { AuthError, HttpError, InvalidCursorError, RateLimitError, type RequestInfo } from '../errors/index.js';
import { parseJson } from '../json/index.js';
import { redactJsonValue, redactText } from './redact.js';
import { parseRetryAfter } from './retry-after.js';
import { bodyText } from './response-body.js';

/** A response whose status is not a success, its body read. */
export interface FailedResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  request: RequestInfo;
}

/** Longest raw (non-JSON) error body kept on an error, in characters. */
const MAX_TEXT_BODY = 500;

/**
 * The typed error for a response whose status is not a success:
 * 401/403 `AuthError`, 429 `RateLimitError` (with `Retry-After` in ms), 400 on a request that
 * carried `id_start` `InvalidCursorError` (spec: Errors), anything else `HttpError`.
 * The body is kept parsed when it is JSON, else as text (shortened); the token is redacted from it.
 */
export function errorForResponse(response: FailedResponse, token: string, now: number): HttpError {
  const { status, request } = response;
  const body = readBody(bodyText(response.body), token);
  const options = { request, status, body };
  const said = serviceReason(body);
  const reason = said === undefined ? '' : `: the service said ${JSON.stringify(said)}`;
  if (status === 401 || status === 403) {
    return new AuthError(`the service refused the API token (missing, wrong or revoked)${reason}`, options);
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), response.headers.get('date'), now);
    const wait = retryAfterMs === undefined ? '' : `; it asked to retry after ${retryAfterMs} ms`;
    return new RateLimitError(`rate limit exceeded${wait}${reason}`, { ...options, retryAfterMs });
  }
  if (status === 400 && /[?&]id_start=/.test(request.path)) {
    return new InvalidCursorError(`the service refused id_start: not a valid record id${reason}`, options);
  }
  return new HttpError(`${status >= 500 ? 'the service failed' : 'the service refused the request'}${reason}`, options);
}

/** Longest reason of the service's quoted in an error's message, in characters. */
const MAX_REASON = 200;

/**
 * The service's own words for an error, when its body has them (the interface does not say what an
 * error body holds): a short text body, or the first text field of a JSON object that usually
 * carries one (`message`, `error`, `reason`, `detail`, `msg`). Already redacted; one line, shortened.
 */
export function serviceReason(body: unknown): string | undefined {
  let text: unknown = body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    text = ['message', 'error', 'reason', 'detail', 'msg'].map((key) => fields[key]).find((value) => typeof value === 'string' && value.trim() !== '');
  }
  if (typeof text !== 'string') return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
}

/**
 * The body as the error keeps it: parsed when it is JSON, with the token redacted from every string
 * and key (a server may echo the header back, JSON-escaped); else the text, redacted and shortened.
 */
function readBody(text: string, token: string): unknown {
  if (text === '') return undefined;
  try {
    return redactJsonValue(parseJson(text), token);
  } catch {
    // not JSON: keep the text
  }
  const safe = redactText(text, token);
  return safe.length > MAX_TEXT_BODY ? `${safe.slice(0, MAX_TEXT_BODY)}…` : safe;
}
