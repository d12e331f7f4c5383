import type { MirrorDb } from '../../db/mirror-db.js';
import { noteAvailability, readUnavailable, recheckDue, type ListName } from './collection-availability.js';
import { describeError, pullFailureScope } from './failures.js';
import type { SyncReport } from './sync-report.js';

/** Options of {@link pullIsolated}. */
export interface IsolatedPullsOptions {
  db: MirrorDb;
  now: () => number;
  reconcileIntervalMs: number;
  /** The run names these collections (`syncNow({ collections })`): unavailable ones are asked at once. */
  explicit: boolean;
  /** Where failures and unavailable collections are reported. */
  report: Pick<SyncReport, 'failed' | 'unavailable'>;
}

/**
 * Runs `pull` for each of `names`, one after the other, each failing alone (docs/design.md,
 * decision 4: a collection the server lacks or keeps failing fails alone, never the others or the
 * push):
 * - a collection marked unavailable is skipped, unless it is due to be asked again (see
 *   `recheckDue`) or the run names it;
 * - a 404 (the list missing at every path form) marks it unavailable; a later success clears it;
 * - a failure of the collection alone (see `pullFailureScope`) is reported and the others go on;
 * - a failure that is not about one collection (auth, network, rate limit, storage, abort, a bug)
 *   stops here, thrown.
 * `pull` is told the name it will be asked next (so it can read ahead), if any, and the index of
 * its name in `names` (a name may be there twice: a collection pulled bounded, then whole).
 * Resolves with the names whose pull succeeded, and the first failure of a collection alone.
 */
export async function pullIsolated<N extends ListName>(
  names: readonly N[],
  pull: (name: N, next: N | undefined, index: number) => Promise<void>,
  options: IsolatedPullsOptions,
): Promise<{ pulled: N[]; firstFailure: { error: unknown } | undefined }> {
  const { db, now, report } = options;
  const unavailable = names.length > 0 ? await readUnavailable(db) : {};
  const pulled: N[] = [];
  let firstFailure: { error: unknown } | undefined;
  const skipped = (name: N): boolean => {
    const marked = unavailable[name];
    return marked !== undefined && !options.explicit && !recheckDue(marked, now(), options.reconcileIntervalMs);
  };
  for (const [index, name] of names.entries()) {
    const marked = unavailable[name];
    if (skipped(name)) {
      report.unavailable.push(name);
      continue;
    }
    try {
      await pull(name, names.slice(index + 1).find((n) => !skipped(n)), index);
    } catch (error) {
      const scope = pullFailureScope(error);
      if (scope === 'run') throw error;
      if (scope === 'unavailable') {
        await noteAvailability(db, name, describeError(error).message, now());
        report.unavailable.push(name);
      } else {
        report.failed.push({ collection: name, error: describeError(error) });
        firstFailure ??= { error };
      }
      continue;
    }
    if (marked) await noteAvailability(db, name, undefined, now());
    pulled.push(name);
  }
  return { pulled, firstFailure };
}
