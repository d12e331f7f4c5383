import type { ValidationIssue } from '../errors/validation-error.js';

/**
 * The issues of a `ValidationError` by field, for a form: the first message of each path
 * (`'phone'`, `'address.city'`); an issue about the record as a whole is under `''`.
 */
export function fieldErrorsOf(issues: readonly ValidationIssue[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.join('.');
    byField[field] ??= issue.message;
  }
  return byField;
}
