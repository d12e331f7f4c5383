import { PosCloudError, type PosCloudErrorOptions } from './pos-cloud-error.js';

/** One problem found in a record: where and what. */
export interface ValidationIssue {
  /** Path to the bad value: record index (in a batch) and field names. */
  path: (string | number)[];
  /** What is wrong, in a short sentence. */
  message: string;
}

/** A record (local edit, server body or option) failed its schema. Nothing was written. */
export class ValidationError extends PosCloudError {
  override name = 'ValidationError';
  /** Every problem found, not only the first. */
  readonly issues: ValidationIssue[];

  constructor(message: string, options: PosCloudErrorOptions & { issues: ValidationIssue[] }) {
    super(message, options);
    this.issues = options.issues;
  }
}

/** True for a {@link ValidationError}. */
export function isValidationError(error: unknown): error is ValidationError {
  return error instanceof ValidationError;
}

/** Formats issues as `field.path: message; ...` for an error message. */
export function formatIssues(issues: readonly ValidationIssue[], max = 10): string {
  const shown = issues.slice(0, max).map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`);
  if (issues.length > max) shown.push(`and ${issues.length - max} more`);
  return shown.join('; ');
}
