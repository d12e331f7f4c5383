import type { ValidationIssue } from '../errors/index.js';
import { describeValue } from './describe-value.js';

/** Deepest nesting of arrays and objects a record field may hold. */
export const MAX_JSON_DEPTH = 256;

/**
 * The fields of `record` whose values cannot go out as JSON exactly as they are stored, one issue
 * per field: a non-finite number (JSON has none; `JSON.stringify` would send `null`), `undefined`
 * inside an array, a function or symbol, an object that is not a plain object or array (a `Date`,
 * `Map` or class instance would be sent as something else, or as `{}`), a cycle, or nesting
 * deeper than {@link MAX_JSON_DEPTH}. Bigints are allowed: `stringifyJson` writes them as bare
 * integers. The typed fields of a write face are checked by their schema; this covers the unknown
 * fields a record keeps and sends back.
 */
export function nonJsonFields(record: Readonly<Record<string, unknown>>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value === undefined) continue; // an absent field: not sent
    const problem = findProblem(value, [key], []);
    if (problem) issues.push(problem);
  }
  return issues;
}

function findProblem(value: unknown, path: (string | number)[], ancestors: object[]): ValidationIssue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { path, message: `must be a finite number (JSON has no ${String(value)})` };
    case 'object':
      break;
    default:
      return { path, message: `must be a JSON value, got ${describeValue(value)}` };
  }
  if (value === null) return undefined;
  if (ancestors.includes(value)) return { path, message: 'must be a JSON value, got a circular reference' };
  if (ancestors.length >= MAX_JSON_DEPTH) return { path, message: `must be nested at most ${MAX_JSON_DEPTH} levels deep` };
  const inner = [...ancestors, value];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === undefined) return { path: [...path, i], message: 'must be a JSON value, got undefined (JSON would send null)' };
      const problem = findProblem(item, [...path, i], inner);
      if (problem) return problem;
    }
    return undefined;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return { path, message: `must be a plain object, array or JSON value, got ${typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype'}` };
  }
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue; // dropped by JSON, as an absent key
    const problem = findProblem(item, [...path, key], inner);
    if (problem) return problem;
  }
  return undefined;
}
