import type { z } from 'zod';
import { describeValue, type ValidationIssue } from '../errors/index.js';

const EXPECTED: Readonly<Record<string, string>> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  bigint: 'a bigint',
};

/**
 * The project's wording of one zod issue, naming the rule in the spec's terms:
 * `required`, `expected an integer, got the string "5"`, `must be >= 0`,
 * `must be exactly 2 characters`, `invalid e-mail`, `must be one of A, B, C`.
 * Used as the per-parse error map, so schema-level messages (ids) still win.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return 'required';
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(input)}`;
    case 'too_small':
      return describeBound(issue, issue.minimum, issue.inclusive ? '>=' : '>', 'at least');
    case 'too_big':
      if (issue.origin === 'int' && issue.maximum === Number.MAX_SAFE_INTEGER) {
        return 'must be a safe integer (at most 2^53 - 1)';
      }
      return describeBound(issue, issue.maximum, issue.inclusive ? '<=' : '<', 'at most');
    case 'invalid_format':
      return issue.format === 'email' ? 'invalid e-mail' : `invalid ${issue.format}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}, got ${describeValue(input)}`
        : `must be one of ${issue.values.map(String).join(', ')}, got ${describeValue(input)}`;
    default:
      return issue.message ?? 'invalid value';
  }
}

function describeBound(
  issue: { origin: string; exact?: boolean | undefined; input?: unknown },
  bound: number | bigint,
  comparison: string,
  words: string,
): string {
  if (issue.origin === 'string') {
    const chars = `${bound} character${bound === 1 ? '' : 's'}`;
    return issue.exact ? `must be exactly ${chars}` : `must be ${words} ${chars}`;
  }
  if (issue.origin === 'array') return `must have ${words} ${bound} items`;
  return `must be ${comparison} ${bound}, got ${describeValue(issue.input)}`;
}

/** Converts zod issues to the project's {@link ValidationIssue}s (paths of field names and indexes). */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
    message: issue.message,
  }));
}
