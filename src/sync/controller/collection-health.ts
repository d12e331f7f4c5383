import type { ListName, SyncReport } from '../cycle/index.js';

/**
 * The health of the collections, as runs and sweeps found it: the sync controller's state, which
 * `status.failing` and `status.refusing` show (never read back from the status).
 */
export interface CollectionHealth {
  /** Collections whose last pull failed alone, with the failure. */
  failing: Partial<Record<ListName, { name: string; message: string }>>;
  /** Collections whose latest pulled page was mostly refused by the read schema. */
  refusing: ListName[];
}

/** The health of a mirror just made: nothing failing, nothing refused. */
export const initialHealth = (): CollectionHealth => ({ failing: {}, refusing: [] });

/**
 * What a finished run or sweep changes in the collections' health: `failing` loses the
 * collections pulled in this run and gains those that failed; `refusing` gains the collections
 * with a mostly refused page and loses those whose pages were mostly accepted. Collections the
 * run did not ask keep what they had.
 */
export function healthAfter(health: CollectionHealth, report: SyncReport): CollectionHealth {
  const failing = { ...health.failing };
  const refusing = new Set(health.refusing);
  for (const pull of report.pulls) {
    delete failing[pull.collection];
    if (pull.mostlyRefused) refusing.add(pull.collection);
    else if (pull.received > 0) refusing.delete(pull.collection);
  }
  for (const sweep of report.reconciled) delete failing[sweep.collection];
  if (report.categories !== undefined) delete failing.categories;
  for (const { collection, error } of report.failed) failing[collection] = error;
  return { failing, refusing: [...refusing].sort() };
}
