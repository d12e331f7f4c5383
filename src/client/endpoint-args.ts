import { formatIssues, ValidationError, type ValidationIssue } from '../errors/index.js';
import { tryToId, type Id } from '../ids/id.js';
import { isPositiveMs, POSITIVE_MS_MESSAGE } from '../schema/timer-limit.js';
import type { CallOptions } from './requester.js';

/**
 * Reads a required record id argument (number, bigint or digit string) as a canonical, non-zero
 * {@link Id}; else a `ValidationError` naming the argument and the endpoint.
 */
export function requireId(value: unknown, name: string, where: string): Id {
  const id = tryToId(value);
  if (id === undefined || id === '0') {
    throw new ValidationError(`${where}: ${name} must be a record id (digits, not 0)`, {
      issues: [{ path: [name], message: 'must be a non-zero record id' }],
    });
  }
  return id;
}

/** Checks the per-call options every endpoint takes. */
export function checkCallOptions(options: CallOptions | undefined, where: string): CallOptions {
  if (options === undefined) return {};
  const issues: ValidationIssue[] = [];
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) {
    issues.push({ path: [], message: 'options must be an object' });
  } else {
    const { timeoutMs } = options;
    const signal: unknown = options.signal;
    if (signal !== undefined && !(typeof signal === 'object' && signal !== null && 'aborted' in signal)) {
      issues.push({ path: ['signal'], message: 'must be an AbortSignal' });
    }
    if (timeoutMs !== undefined && !isPositiveMs(timeoutMs)) issues.push({ path: ['timeoutMs'], message: POSITIVE_MS_MESSAGE });
  }
  if (issues.length > 0) {
    throw new ValidationError(`${where}: invalid options: ${formatIssues(issues, { whole: '(options)', separator: ' ' })}`, { issues });
  }
  return options;
}

/** Throws one `ValidationError` for a report body when `issues` is not empty. */
export function assertNoIssues(issues: ValidationIssue[], where: string): void {
  if (issues.length > 0) {
    throw new ValidationError(`${where}: invalid body: ${formatIssues(issues, { separator: ' ' })}`, { issues });
  }
}
