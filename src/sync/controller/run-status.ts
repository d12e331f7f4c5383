import type { ListName, SyncReport } from '../cycle/index.js';

/** The per-collection parts of the status a run changes. */
export interface CollectionStatus {
  /** Collections whose last pull failed alone, with the failure. */
  failing: Partial<Record<ListName, { name: string; message: string }>>;
  /** Collections whose latest pulled page was mostly refused by the read schema. */
  refusing: ListName[];
}

/**
 * What a finished run changes in the per-collection parts of the status: `failing` loses the
 * collections pulled in this run and gains those that failed; `refusing` gains the collections
 * with a mostly refused page and loses those whose pages were mostly accepted. Collections the
 * run did not ask keep what they had.
 */
export function collectionStatusAfter(status: CollectionStatus, report: SyncReport): CollectionStatus {
  const failing = { ...status.failing };
  const refusing = new Set(status.refusing);
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
