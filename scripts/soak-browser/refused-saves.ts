/**
 * The user actions a page refused because its connection to IndexedDB was lost (outcome `lost`:
 * the app told its user the edit was not made) that reached the service all the same: a create
 * found on the server by its marker, an edit whose value a POST carried (known from the note its
 * page sent before the commit). Not a check: the ledger expects none of them and none is data
 * lost; a figure of the report, since a user told to make the edit again makes such a create twice.
 */
import type { CollectionName } from '../../src/schema/collections.js';
import type { AnyRecord } from '../soak/checks.js';
import { markerOf } from '../soak/ledger.js';
import type { PageReport } from './page/soak-page.js';
import type { ServiceWatch } from './service-watch.js';

/** A user action as `Users.log` keeps it. */
interface LoggedAction {
  step: number;
  kind: string;
  outcome: string;
}

/** How many refused actions (see the file's comment) were stored all the same, and their steps and kinds (a create such is a duplicate risk; an edit made again is not). */
export function refusedButStored(
  log: readonly LoggedAction[],
  reports: readonly PageReport[],
  server: Readonly<Record<CollectionName, readonly AnyRecord[]>>,
  watch: ServiceWatch,
): { refused: number; stored: { step: number; kind: string }[] } {
  const refused = log.filter((action) => action.outcome === 'lost');
  const markers = new Set(Object.values(server).flatMap((records) => records.map((r) => markerOf(r)?.split('.')[0])));
  const stored = refused.filter((action) => {
    if (action.kind === 'create') return markers.has(String(action.step));
    if (action.kind !== 'edit') return false;
    return reports.some(
      (report) =>
        report.kind === 'intent' &&
        report.calls.some(([method, args]) => {
          if (method !== 'wrote' || args[0] !== action.step) return false;
          const [, , collection, id, , values] = args;
          return Object.entries(values).every(([field, value]) => watch.postedValue(collection, String(id), field, value));
        }),
    );
  });
  return { refused: refused.length, stored: stored.map((action) => ({ step: action.step, kind: action.kind })) };
}
