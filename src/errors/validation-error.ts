import { PosCloudError, type PosCloudErrorOptions, type PosCloudErrorCode } from './pos-cloud-error.js';

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
  override readonly code: PosCloudErrorCode = 'validation';
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

/** How {@link formatIssues} writes a list of issues. */
export interface FormatIssuesOptions {
  /**
   * How many issues are written; the rest are counted (`and N more`).
   * @default Infinity
   */
  max?: number;
  /**
   * What an issue without a path is about.
   * @default '(record)'
   */
  whole?: string;
  /**
   * Between the path and the message: `: ` for a list of fields, ` ` where the path reads as the
   * subject of the message (`limit must be ...`).
   * @default ': '
   */
  separator?: ': ' | ' ';
}

/** Formats issues as `field.path: message; ...` for an error message, every bad field named. */
export function formatIssues(issues: readonly ValidationIssue[], options: FormatIssuesOptions = {}): string {
  const { max = Infinity, whole = '(record)', separator = ': ' } = options;
  const shown = issues.slice(0, max).map((i) => `${i.path.length > 0 ? i.path.join('.') : whole}${separator}${i.message}`);
  if (issues.length > max) shown.push(`and ${issues.length - max} more`);
  return shown.join('; ');
}
