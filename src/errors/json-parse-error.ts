import { PosCloudError, type PosCloudErrorOptions, type PosCloudErrorCode } from './pos-cloud-error.js';

/** Text that is not valid JSON (RFC 8259): nothing of it is used. */
export class JsonParseError extends PosCloudError {
  override name = 'JsonParseError';
  override readonly code: PosCloudErrorCode = 'json-parse';
  /** Character offset where the text stopped being valid JSON. */
  readonly position: number;

  constructor(message: string, options: PosCloudErrorOptions & { position: number }) {
    super(message, options);
    this.position = options.position;
  }
}

/** True for a {@link JsonParseError}. */
export function isJsonParseError(error: unknown): error is JsonParseError {
  return error instanceof JsonParseError;
}
