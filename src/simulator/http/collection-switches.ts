/**
 * The switches that take one collection's endpoints away (`missingCollections`) or break its
 * list (`failingCollections`): a tenant lacking an endpoint, and a persistent 5xx on one.
 */
import type { Switches } from '../switches.js';
import { errorReply, type Reply } from './respond.js';

/** Paths that name a collection in their first segment but are not its endpoints. */
const OTHER_FIRST_SEGMENTS = new Set(['reports', 'orders_details']);

/**
 * The answer the switches force for `method` on `path` (below the base path), or undefined when
 * they leave the request alone: 404 for every path of a missing collection, 500 for the list of a
 * failing one.
 */
export function collectionSwitchReply(switches: Readonly<Switches>, method: string, path: string): Reply | undefined {
  const segments = path.split('/').filter(Boolean);
  const first = segments[0];
  if (first === undefined || OTHER_FIRST_SEGMENTS.has(first)) return undefined;
  if ((switches.missingCollections as readonly string[]).includes(first)) {
    return errorReply(404, 'not_found', `no endpoint ${method} ${path} (this tenant lacks ${first})`);
  }
  const isList = method === 'GET' && (segments.length === 1 || (segments.length === 2 && segments[1] === 'list'));
  if (isList && (switches.failingCollections as readonly string[]).includes(first)) {
    return errorReply(500, 'internal', `the ${first} list fails (failingCollections switch)`);
  }
  return undefined;
}
