import { ValidationError } from '../errors/index.js';

/** The {@link ValidationError} a conversion helper throws: `what: message`, one issue without a path. */
export function conversionError(what: string, message: string): ValidationError {
  return new ValidationError(`${what}: ${message}`, { issues: [{ path: [], message }] });
}
