import { isPosCloudError, NetworkError, PosCloudError, TimeoutError, type RequestInfo } from '../errors/index.js';
import { redact, safeCause } from './redact.js';

/**
 * The typed error for what a try threw before it had a response: fetch's `TypeError` (a refused,
 * reset or dropped connection) is a `NetworkError`; ky's timeout a `TimeoutError`; our own errors
 * pass through. Anything else a custom fetch throws becomes a `PosCloudError` whose `cause` is a
 * redacted copy (name, message, code) of it: the original may hold the request's headers, token
 * included. None of ky's errors is ever passed on: they carry the request and its headers.
 */
export function errorOfTry(error: unknown, request: RequestInfo, token: string, timeoutMs: number): PosCloudError {
  if (isPosCloudError(error)) return error;
  const where = `${request.method} ${request.path}`;
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new TimeoutError(`${where} timed out after ${timeoutMs} ms`, { request });
  }
  if (error instanceof TypeError || isDomNetworkError(error)) {
    return new NetworkError(`${where} failed: ${redact(describeChain(error), token)}${corsHint()}`, { request, cause: safeCause(error, token) });
  }
  return new PosCloudError(`${where} failed in the fetch function: ${redact(describeChain(error), token)}`, {
    request,
    cause: safeCause(error, token),
  });
}

/**
 * In a page, a cross-origin request the server does not allow fails exactly as a refused connection
 * does (the browser tells the page nothing more): the message says so, for whoever reads it.
 */
function corsHint(): string {
  const inPage = typeof document !== 'undefined' && typeof location !== 'undefined';
  return inPage ? ` (in a browser this is also how a cross-origin request fails that the server does not allow: check its CORS headers for ${location.origin})` : '';
}

function isDomNetworkError(error: unknown): boolean {
  return typeof DOMException !== 'undefined' && error instanceof DOMException && error.name === 'NetworkError';
}

/** `fetch failed: other side closed`: fetch's own message says little, its causes say what. */
function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current.message && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.join(': ') || 'connection failed';
}
