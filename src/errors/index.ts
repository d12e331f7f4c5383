export { PosCloudError, isPosCloudError, type RequestInfo, type PosCloudErrorOptions } from './pos-cloud-error.js';
export { HttpError, isHttpError, type HttpErrorOptions } from './http-error.js';
export { AuthError, isAuthError } from './auth-error.js';
export { RateLimitError, isRateLimitError } from './rate-limit-error.js';
export { InvalidCursorError, isInvalidCursorError } from './invalid-cursor-error.js';
export { NetworkError, isNetworkError } from './network-error.js';
export { TimeoutError, isTimeoutError } from './timeout-error.js';
export { JsonParseError, isJsonParseError } from './json-parse-error.js';
export { ValidationError, isValidationError, formatIssues, type ValidationIssue } from './validation-error.js';
