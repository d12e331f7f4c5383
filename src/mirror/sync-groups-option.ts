import { z } from 'zod';
import type { ValidationIssue } from '../errors/index.js';
import { COLLECTIONS, type CollectionName } from '../schema/collections.js';
import { DEFAULT_SYNC_GROUPS } from '../sync/cycle/index.js';
import { HYDRATIONS, NEWEST_FIRST } from '../sync/pull/index.js';

const GROUP_MESSAGE = 'must be an array of groups: { name: a non-empty string, collections: collection names, days?: a positive number }';
const DAYS_MESSAGE = 'must be a positive number of days';

const groupShape = z.strictObject({
  name: z.string({ error: 'must be a non-empty string' }).min(1, 'must be a non-empty string'),
  collections: z.array(z.enum(COLLECTIONS, { error: (issue) => `unknown collection ${JSON.stringify(issue.input)}; known: ${COLLECTIONS.join(', ')}` }), {
    error: 'must be an array of collection names',
  }),
  days: z.number({ error: DAYS_MESSAGE }).positive(DAYS_MESSAGE).max(Number.MAX_SAFE_INTEGER / 86_400_000, DAYS_MESSAGE).optional(),
});

/**
 * The option `syncGroups`: a list of groups, each a name, collection names and maybe `days`.
 * Checked on its own here (shapes, names, a group named twice, a collection in two whole groups or
 * in two bounded ones, a bounded group after the whole one or with no whole one after it, `days`
 * on a collection not traversed newest first); whether it covers every collection the mirror
 * keeps is {@link syncGroupsCoverage}, which needs the option `collections` too.
 */
export const syncGroupsOption = z
  .array(groupShape, { error: GROUP_MESSAGE })
  .superRefine((groups, ctx) => {
    const names = new Set<string>();
    const whole = new Map<CollectionName, string>();
    const bounded = new Map<CollectionName, { group: string; index: number }>();
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    for (const [i, group] of groups.entries()) {
      if (names.has(group.name)) issue([i, 'name'], `group ${JSON.stringify(group.name)} is named twice`);
      names.add(group.name);
      for (const collection of group.collections) {
        const wholeIn = whole.get(collection);
        if (group.days === undefined) {
          if (wholeIn !== undefined) issue([i, 'collections'], `${collection} is already in group ${JSON.stringify(wholeIn)}: a collection belongs to one group (and may be in one earlier group with days)`);
          else whole.set(collection, group.name);
          continue;
        }
        const boundedIn = bounded.get(collection);
        if (!NEWEST_FIRST.has(collection)) issue([i, 'days'], `${collection} is not traversed newest first: only ${[...NEWEST_FIRST].join(', ')} may be in a group with days`);
        else if (boundedIn !== undefined) issue([i, 'collections'], `${collection} is already in group ${JSON.stringify(boundedIn.group)} with days: a collection may be in one group with days`);
        else if (wholeIn !== undefined) issue([i, 'collections'], `${collection} is pulled whole by group ${JSON.stringify(wholeIn)} before: a group with days comes before the group that pulls it whole`);
        else bounded.set(collection, { group: group.name, index: i });
      }
    }
    for (const [collection, { group, index }] of bounded) {
      if (!whole.has(collection)) issue([index, 'collections'], `${collection} is only in group ${JSON.stringify(group)}, bounded by days: it needs a later group without days that pulls the rest`);
    }
  })
  .default(() => DEFAULT_SYNC_GROUPS.map((group) => ({ ...group, collections: [...group.collections] })));

/**
 * The issues of a `syncGroups` option that leaves out a collection the mirror keeps (the option
 * `collections`, or all 14, and the hydration children they bring): each would never be pulled,
 * so it is named rather than guessed into some group. Nothing when either option is malformed
 * (their own issues say so).
 */
export function syncGroupsCoverage(given: Readonly<Record<string, unknown>>): ValidationIssue[] {
  const groups = syncGroupsOption.safeParse(given.syncGroups);
  const asked = given.collections === undefined ? [...COLLECTIONS] : z.array(z.enum(COLLECTIONS)).safeParse(given.collections).data;
  if (!groups.success || given.syncGroups === undefined || asked === undefined) return [];
  // A collection only in a group with days is named by that group's own issue.
  const placed = new Set(groups.data.flatMap((group) => group.collections));
  const kept = asked.flatMap((c) => [c, ...(HYDRATIONS[c] ? [HYDRATIONS[c].child] : [])]);
  const missing = COLLECTIONS.filter((c) => kept.includes(c) && !placed.has(c));
  return missing.length === 0 ? [] : [{ path: ['syncGroups'], message: `leaves out ${missing.join(', ')}: every collection the mirror keeps belongs to one group` }];
}

