/** Where a failed request was going: method and path (never headers, never the token). */
export interface RequestInfo {
  /** HTTP method, upper case. */
  method: string;
  /** Path below the base URL, with the query string. */
  path: string;
}

/** Options shared by every error of the library. */
export interface PosCloudErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
  /** The request that failed, when the error came from one. */
  request?: RequestInfo;
}

/**
 * What kind of failure an error of the library is, as a stable string an app can switch on (the
 * class names survive minifiers poorly; these do not change between versions):
 *
 * | code | class | what happened |
 * |---|---|---|
 * | `pos-cloud` | `PosCloudError` | the library refused a call (a closed mirror, a copy another tab syncs) |
 * | `http` | `HttpError` | the service answered an error status |
 * | `auth` | `AuthError` | the token was refused (401, 403): sync stops until `setToken()` |
 * | `rate-limit` | `RateLimitError` | 429 after the retries |
 * | `invalid-cursor` | `InvalidCursorError` | 400 for an `id_start` the service did not take |
 * | `network` | `NetworkError` | no complete answer: refused, reset, dropped (or, in a browser, CORS) |
 * | `timeout` | `TimeoutError` | no answer in time |
 * | `json-parse` | `JsonParseError` | a body that is not valid JSON |
 * | `validation` | `ValidationError` | a record, an id or an option failed its rules (see `issues`) |
 * | `storage` | `StorageError` | the database or the file storage could not do what was asked |
 * | `pagination` | `PaginationError` | a traversal met pages that contradict each other |
 * | `outside-history-window` | `OutsideHistoryWindowError` | a query asked for records older than the history window keeps |
 */
export type PosCloudErrorCode =
  | 'pos-cloud'
  | 'http'
  | 'auth'
  | 'rate-limit'
  | 'invalid-cursor'
  | 'network'
  | 'timeout'
  | 'json-parse'
  | 'validation'
  | 'storage'
  | 'pagination'
  | 'outside-history-window';

/**
 * Base class of every error the library throws. Messages say what failed and where
 * (method, path, collection, record index, field) and never contain the API token.
 */
export class PosCloudError extends Error {
  override name = 'PosCloudError';
  /** What kind of failure this is (see {@link PosCloudErrorCode}): stable across versions, for an app to switch on. */
  readonly code: PosCloudErrorCode = 'pos-cloud';
  /** The request that failed, when there was one. */
  readonly request: RequestInfo | undefined;

  constructor(message: string, options: PosCloudErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.request = options.request;
  }
}

/** True for any error thrown by this library. */
export function isPosCloudError(error: unknown): error is PosCloudError {
  return error instanceof PosCloudError;
}

/** Formats `METHOD /path` for messages. */
export function describeRequest(request: RequestInfo | undefined): string {
  return request ? `${request.method} ${request.path}` : '';
}
