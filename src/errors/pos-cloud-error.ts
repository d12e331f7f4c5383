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
 * Base class of every error the library throws. Messages say what failed and where
 * (method, path, collection, record index, field) and never contain the API token.
 */
export class PosCloudError extends Error {
  override name = 'PosCloudError';
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
