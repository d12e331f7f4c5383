import { describeValue, type ValidationIssue } from '../errors/index.js';

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
    // One path and one ancestor stack for the whole walk; a path is copied only into an issue.
    const path: (string | number)[] = [key];
    const problem = findProblem(value, path, []);
    if (problem) issues.push({ path: [...path], message: problem });
  }
  return issues;
}

/**
 * What makes `value` no JSON value, or undefined. On a problem, `path` is left pointing at it;
 * otherwise it is as it was given. `ancestors` are the objects that hold `value` (cycles).
 */
function findProblem(value: unknown, path: (string | number)[], ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `must be a finite number (JSON has no ${String(value)})`;
    case 'object':
      break;
    default:
      return `must be a JSON value, got ${describeValue(value)}`;
  }
  if (value === null) return undefined;
  if (ancestors.includes(value)) return 'must be a JSON value, got a circular reference';
  if (ancestors.length >= MAX_JSON_DEPTH) return `must be nested at most ${MAX_JSON_DEPTH} levels deep`;
  if (!Array.isArray(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== null && !isObjectPrototype(prototype)) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `must be a plain object, array or JSON value, got ${typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype'}`;
    }
  }
  ancestors.push(value);
  const problem = Array.isArray(value) ? findInArray(value, path, ancestors) : findInObject(value as Record<string, unknown>, path, ancestors);
  if (problem) return problem;
  ancestors.pop();
  return undefined;
}

function findInArray(array: readonly unknown[], path: (string | number)[], ancestors: object[]): string | undefined {
  for (let i = 0; i < array.length; i++) {
    path.push(i);
    const item = array[i];
    // undefined (or a hole) would go out as null.
    const problem = item === undefined ? 'must be a JSON value, got undefined (JSON would send null)' : findProblem(item, path, ancestors);
    if (problem) return problem;
    path.pop();
  }
  return undefined;
}

function findInObject(object: Record<string, unknown>, path: (string | number)[], ancestors: object[]): string | undefined {
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (item === undefined) continue; // dropped by JSON, as an absent key
    path.push(key);
    const problem = findProblem(item, path, ancestors);
    if (problem) return problem;
    path.pop();
  }
  return undefined;
}

/**
 * True for `Object.prototype` of any realm: a record read back from IndexedDB through another
 * frame's (see `freshFrameIndexedDb`) is a plain object of that frame.
 */
function isObjectPrototype(prototype: unknown): boolean {
  if (prototype === Object.prototype) return true;
  if (typeof prototype !== 'object' || prototype === null || Object.getPrototypeOf(prototype) !== null) return false;
  const ctor = (prototype as { constructor?: unknown }).constructor;
  return typeof ctor === 'function' && ctor.name === 'Object' && Function.prototype.toString.call(ctor) === Function.prototype.toString.call(Object);
}
