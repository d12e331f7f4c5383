import { z } from 'zod';
import { formatIssues, ValidationError, type ValidationIssue } from '../errors/index.js';

/** What {@link parseOptions} gives back: the parsed options, or every problem found in them. */
export type ParsedOptions<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses the options of a factory (`createClient`, `createMirror`, `createPusher`) with its zod
 * schema. Each unknown key is an issue of its own, named by its path, and they come first: a
 * misspelt option explains the missing one after it. Option schemas carry their own messages,
 * so what a user reads does not depend on zod's wording.
 */
export function parseOptions<S extends z.ZodType>(schema: S, options: unknown): ParsedOptions<z.output<S>> {
  const result = schema.safeParse(options);
  if (result.success) return { ok: true, value: result.data };
  const unknown: ValidationIssue[] = [];
  const others: ValidationIssue[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.map((key) => (typeof key === 'number' ? key : String(key)));
    if (issue.code === 'unrecognized_keys') unknown.push(...issue.keys.map((key) => ({ path: [...path, key], message: issue.message })));
    else others.push({ path, message: issue.message });
  }
  return { ok: false, issues: [...unknown, ...others] };
}

/**
 * {@link parseOptions}, throwing one `ValidationError` that names every bad option:
 * `<factory>: <heading>: <issues>`. With `notAnObject`, options that are not an object at all
 * (callers from plain JavaScript can pass anything) say that instead.
 */
export function parseOptionsOrThrow<S extends z.ZodType>(
  schema: S,
  options: unknown,
  messages: { factory: string; heading: string; notAnObject?: boolean },
): z.output<S> {
  const parsed = parseOptions(schema, options);
  if (parsed.ok) return parsed.value;
  const { issues } = parsed;
  if (messages.notAnObject === true && issues[0]?.path.length === 0) throw new ValidationError(`${messages.factory}: options must be an object`, { issues });
  throw new ValidationError(`${messages.factory}: ${messages.heading}: ${formatIssues(issues, { whole: '(options)' })}`, { issues });
}

/**
 * An array whose every item passes `item`, refused as a whole with one `message`: the list is
 * the option a user gave, so the issue names the list (`retry.methods`), not an index in it.
 */
export function listOf<T extends z.ZodType>(item: T, message: string): z.ZodCustom<z.output<T>[], z.output<T>[]> {
  return z.custom<z.output<T>[]>((value) => Array.isArray(value) && value.every((v) => item.safeParse(v).success), { error: message });
}

/** A function given as an option (`fetch`, `onRetry`, a conflict resolver...). */
export function fnOption<T>(): z.ZodCustom<T, T> {
  return z.custom<T>((value) => typeof value === 'function', { error: 'must be a function' });
}

/**
 * `schema` with `rules` between its options, checked on the options as given. Their issues come
 * after the options' own, and beside them: zod skips an object's refinements once one of its
 * fields has the wrong type, and a user should read every problem at once.
 */
export function withRules<S extends z.ZodType>(schema: S, rules: (given: Readonly<Record<string, unknown>>) => ValidationIssue[]) {
  return z.unknown().transform((given, ctx): z.output<S> => {
    const result = schema.safeParse(given);
    // A finalized issue is a raw one with its message and path set: zod keeps both as they are.
    if (!result.success) ctx.issues.push(...(result.error.issues as z.core.$ZodRawIssue[]));
    const broken = typeof given === 'object' && given !== null && !Array.isArray(given) ? rules(given as Readonly<Record<string, unknown>>) : [];
    for (const { path, message } of broken) ctx.issues.push({ code: 'custom', path, message, input: given });
    return result.success && broken.length === 0 ? result.data : z.NEVER;
  });
}
