import type { ValidationIssue } from '../../errors/index.js';
import { isConflictStrategy, type ConflictStrategy } from '../conflicts/conflict-strategy.js';

/** The conflict strategy of a push when none is given. */
export const DEFAULT_CONFLICT = 'merge' as const satisfies ConflictStrategy;

/**
 * The issues of the push's options as given (`conflict`, `batch`; undefined means the default),
 * one per bad option. `createMirror` and `createPusher` both check with it, so that both say the same.
 */
export function pushOptionIssues(conflict: unknown, batch: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (conflict !== undefined && !isConflictStrategy(conflict)) {
    issues.push({ path: ['conflict'], message: "must be 'merge', 'server-wins', 'client-wins' or a resolver function" });
  }
  if (batch === undefined) return issues;
  if (typeof batch !== 'object' || batch === null || Array.isArray(batch)) {
    issues.push({ path: ['batch'], message: 'must be an object: { maxRecords?, maxBytes? }' });
    return issues;
  }
  const { maxRecords, maxBytes } = batch as Record<string, unknown>;
  if (maxRecords !== undefined && !(Number.isInteger(maxRecords) && (maxRecords as number) >= 1)) {
    issues.push({ path: ['batch', 'maxRecords'], message: 'must be an integer of at least 1' });
  }
  if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && (maxBytes as number) >= 2)) {
    issues.push({ path: ['batch', 'maxBytes'], message: 'must be an integer of at least 2' });
  }
  return issues;
}
