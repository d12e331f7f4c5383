import { z } from 'zod';
import type { ValidationIssue } from '../errors/index.js';
import { COLLECTIONS, type CollectionName } from '../schema/collections.js';
import { DEFAULT_SYNC_GROUPS } from '../sync/cycle/index.js';
import { HYDRATIONS } from '../sync/pull/index.js';

const GROUP_MESSAGE = 'must be an array of groups: { name: a non-empty string, collections: collection names }';

const groupShape = z.strictObject({
  name: z.string({ error: 'must be a non-empty string' }).min(1, 'must be a non-empty string'),
  collections: z.array(z.enum(COLLECTIONS, { error: (issue) => `unknown collection ${JSON.stringify(issue.input)}; known: ${COLLECTIONS.join(', ')}` }), {
    error: 'must be an array of collection names',
  }),
});

/**
 * The option `syncGroups`: a list of groups, each a name and collection names. Checked on its own
 * here (shapes, names, a group or a collection named twice); whether it covers every collection
 * the mirror keeps is {@link syncGroupsCoverage}, which needs the option `collections` too.
 */
export const syncGroupsOption = z
  .array(groupShape, { error: GROUP_MESSAGE })
  .superRefine((groups, ctx) => {
    const names = new Set<string>();
    const placed = new Map<CollectionName, string>();
    for (const [i, group] of groups.entries()) {
      if (names.has(group.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `group ${JSON.stringify(group.name)} is named twice` });
      names.add(group.name);
      for (const collection of group.collections) {
        const first = placed.get(collection);
        if (first !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'collections'], message: `${collection} is already in group ${JSON.stringify(first)}: a collection belongs to one group` });
        else placed.set(collection, group.name);
      }
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
  const placed = new Set(groups.data.flatMap((group) => group.collections));
  const kept = asked.flatMap((c) => [c, ...(HYDRATIONS[c] ? [HYDRATIONS[c].child] : [])]);
  const missing = COLLECTIONS.filter((c) => kept.includes(c) && !placed.has(c));
  return missing.length === 0 ? [] : [{ path: ['syncGroups'], message: `leaves out ${missing.join(', ')}: every collection the mirror keeps belongs to one group` }];
}

