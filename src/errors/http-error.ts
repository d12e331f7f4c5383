import { PosCloudError, describeRequest, type PosCloudErrorOptions, type RequestInfo, type PosCloudErrorCode } from './pos-cloud-error.js';

/** Options of {@link HttpError}. */
export interface HttpErrorOptions extends PosCloudErrorOptions {
  request: RequestInfo;
  /** HTTP status of the response. */
  status: number;
  /** The response body, parsed as JSON when it was JSON, else the raw text (shortened). */
  body?: unknown;
}

/** The server answered with a status that is not a success. */
export class HttpError extends PosCloudError {
  override name = 'HttpError';
  override readonly code: PosCloudErrorCode = 'http';
  /** HTTP status of the response. */
  readonly status: number;
  /** The parsed response body, when there was one. */
  readonly body: unknown;

  constructor(message: string, options: HttpErrorOptions) {
    super(`${message} (${options.status} on ${describeRequest(options.request)})`, options);
    this.status = options.status;
    this.body = options.body;
  }
}

/** True for an {@link HttpError} (or a subclass). */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
