import ky, { type KyInstance } from 'ky';
import { NetworkError, PosCloudError, TimeoutError, type RequestInfo } from '../errors/index.js';
import { redact, safeCause } from './redact.js';

/** One HTTP request to send, relative to the base URL. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path below the base URL, without leading slash: `products`, `orders/latest/123`. */
  path: string;
  /** Query parameters, in the order they are sent. */
  query?: Readonly<Record<string, string>>;
  /** JSON text of the body. */
  body?: string;
}

/** Per-try limits. */
export interface SendOptions {
  /** The caller's signal: aborting it rejects with its reason. */
  signal?: AbortSignal | undefined;
  /** Time limit of the try, headers and whole body included. */
  timeoutMs: number;
}

/** A complete response, whatever its status. */
export interface RawResponse {
  status: number;
  headers: Headers;
  /** The body as received, undecoded (`parseJsonBytes` reads it; `bodyText` decodes it). */
  body: Uint8Array;
  /** Method and path of the request, for messages. */
  request: RequestInfo;
  /**
   * The token this request carried, only to redact it from what the response echoes: after a
   * `setToken` during the request, the current token is not the one to look for.
   */
  sentToken: string;
}

/** Sends single tries; never retries, never looks at the status. */
export interface Transport {
  send(spec: RequestSpec, options: SendOptions): Promise<RawResponse>;
}

/** What {@link createTransport} needs. */
export interface TransportConfig {
  baseUrl: string;
  userAgent: string;
  /** Also send the user agent as `X-Client-User-Agent`. */
  clientUserAgentHeader: boolean;
  getToken(): string;
  fetch: typeof fetch | undefined;
}

/** Formats the path of a spec with its query, as errors show it: `/products?limit=100`. */
function describePath(spec: RequestSpec): string {
  const query = spec.query ? new URLSearchParams(spec.query).toString() : '';
  return `/${spec.path}${query === '' ? '' : `?${query}`}`;
}

/**
 * Creates the transport: ky with its own retry, timeout and status errors switched off (the
 * client's retryer and error mapping own those, and ky's HTTPError would carry the request's
 * headers, token included). The timeout here covers the whole body, not only the headers, so a
 * server that stalls mid-body is caught too.
 *
 * Failures become: the caller's abort reason (unchanged) when the caller aborted, `TimeoutError`
 * when the time ran out, `NetworkError` for a refused, reset or dropped connection (fetch's
 * `TypeError`). Anything else a custom fetch throws becomes a `PosCloudError` whose `cause` is a
 * redacted copy (name, message, code) of it: the original may hold the request's headers.
 */
export function createTransport(config: TransportConfig): Transport {
  const api: KyInstance = ky.create({
    prefixUrl: config.baseUrl,
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  const agentHeaders: Record<string, string> = { 'user-agent': config.userAgent };
  if (config.clientUserAgentHeader) agentHeaders['x-client-user-agent'] = config.userAgent;

  return {
    async send(spec, options) {
      const path = describePath(spec);
      const request: RequestInfo = { method: spec.method, path };
      const outer = options.signal;
      if (outer?.aborted) throw outer.reason;

      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, options.timeoutMs);
      const onAbort = (): void => controller.abort(outer?.reason);
      outer?.addEventListener('abort', onAbort, { once: true });

      const token = config.getToken();
      try {
        const response = await api(path.slice(1), {
          method: spec.method,
          signal: controller.signal,
          headers: {
            authorization: `A|${token}`,
            accept: 'application/json',
            'content-type': 'application/json',
            ...agentHeaders,
          },
          ...(spec.body === undefined ? {} : { body: spec.body }),
        });
        const body = new Uint8Array(await response.arrayBuffer());
        return { status: response.status, headers: response.headers, body, request, sentToken: token };
      } catch (error) {
        if (outer?.aborted) throw outer.reason;
        if (timedOut) {
          throw new TimeoutError(`${spec.method} ${path} timed out after ${options.timeoutMs} ms`, { request });
        }
        if (error instanceof TypeError || isDomNetworkError(error)) {
          throw new NetworkError(`${spec.method} ${path} failed: ${redact(describeChain(error), token)}`, {
            request,
            cause: safeCause(error, token),
          });
        }
        // A custom fetch's own error: it may hold the request (headers, token) in any property,
        // so only a redacted copy of its name, message, code and causes is kept. Not retried.
        throw new PosCloudError(`${spec.method} ${path} failed in the fetch function: ${redact(describeChain(error), token)}`, {
          request,
          cause: safeCause(error, token),
        });
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
      }
    },
  };
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

const decoder = new TextDecoder('utf-8');

/** A body decoded as UTF-8, as `Response.text()` decodes it: a BOM is dropped, invalid bytes become U+FFFD. */
export function bodyText(body: Uint8Array): string {
  return decoder.decode(body);
}
