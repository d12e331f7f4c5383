import type { MirrorDb } from '../../db/mirror-db.js';
import type { CollectionName } from '../../schema/collections.js';
import { emptySyncReport, pullIsolated, type SyncReport } from '../cycle/index.js';
import { assertCollection } from '../outbox/index.js';
import type { ReconcileReport } from '../pull/index.js';

/** What the sweeps `resync()` and `reconcile()` ask for work with. */
export interface SweepParts {
  db: MirrorDb;
  now: () => number;
  /** Told what each sweep found, failures included, before a failure of every collection is thrown. */
  found(report: SyncReport): void;
  /** The collections the mirror keeps. */
  collections: readonly CollectionName[];
  /** One reconcile sweep of one collection. */
  reconcile(collection: CollectionName, signal: AbortSignal): Promise<ReconcileReport>;
}

/**
 * Reconcile sweeps of `collections`, each failing alone as a run's pulls do (a collection the
 * server lacks is marked unavailable, one failing alone shows in `status.failing`); throws when
 * every one failed on its own, or for a failure that is not about one collection.
 */
export async function sweepEach(parts: SweepParts, collections: readonly CollectionName[], signal: AbortSignal): Promise<SyncReport> {
  const report = emptySyncReport(true, parts.now(), collections);
  const isolation = { db: parts.db, now: parts.now, reconcileIntervalMs: 0, explicit: true, report };
  const { pulled, firstFailure } = await pullIsolated(collections, async (c) => void report.reconciled.push(await parts.reconcile(c, signal)), isolation);
  parts.found(report);
  if (pulled.length === 0 && firstFailure) throw firstFailure.error;
  return report;
}

/** The collections a call names (else every mirrored one), each checked. */
export function checkedCollections(parts: Pick<SweepParts, 'collections'>, what: string, only: CollectionName[] | undefined): readonly CollectionName[] {
  const collections = only ?? parts.collections;
  collections.forEach((c) => assertCollection(c, what));
  return collections;
}
