import type { MirrorDb } from '../../db/mirror-db.js';
import type { CheckpointRow, TraversalCursor } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import { applyServerRecords, applyTables, highestVersion } from './apply-records.js';
import { nextCheckpoint, startStopwatch, traversalStart } from './checkpoint.js';
import { holdInQuarantine, sortRejected } from './quarantine.js';
import type { PageLike, SyncClient } from '../sync-client.js';
import { PULL_DEFAULTS } from './pull-defaults.js';
import { pageLimitFor, traverse } from './traverse.js';

/** Progress of one collection's pull, as it goes. */
export interface CollectionProgress {
  /** Records applied in the current (or last) traversal. */
  records: number;
  /** Pages applied in the current (or last) traversal. */
  pages: number;
  /** True once the traversal completed. */
  done: boolean;
}

/** What one pull of one collection did. */
export interface PullReport {
  collection: CollectionName;
  pages: number;
  received: number;
  written: number;
  /**
   * Records quarantined: those the read schema refused, and the refused hydrated children of
   * parents applied without them.
   */
  quarantined: number;
  /**
   * True when, on at least one page, the read schema refused most of the records (more than
   * half): the server's data and this version's schema disagree, and the collection stays mostly
   * empty until they agree. The refused records are in quarantine, counted per collection in
   * `status.quarantinedBy`.
   */
  mostlyRefused: boolean;
  checkpoint: number;
}

/** Options of {@link createPuller}. */
export interface PullerOptions {
  db: MirrorDb;
  client: SyncClient;
  /**
   * Records per page, clamped to the collection's maximum (`COLLECTION_INFO[c].maxLimit`: 400,
   * orders 2000), so one value serves every collection. @default 400
   */
  pageLimit?: number;
  /** Safety margin under the server time of a traversal's start (ms). @default 60_000 */
  skewMarginMs?: number;
  /**
   * Local clock (wall time): `lastSyncAt`, quarantine times, and one of the two measures of how
   * long a traversal's first response took (see {@link startStopwatch}). @default Date.now
   */
  now?: () => number;
  /** Called after every applied page. */
  onProgress?: (collection: CollectionName, progress: CollectionProgress) => void;
}

/** Pulls deltas of collections into the mirror (docs/design.md, decision 3). */
export interface Puller {
  /**
   * One delta traversal of `collection`. An interrupted one is resumed from its saved cursor and
   * then followed by a fresh delta traversal: the resumed one does not read again the records
   * below its cursor, which may have changed since it was interrupted, and once a pull returns
   * every record changed before it was called is current (the push checks its conflicts
   * against what the pull before it read).
   */
  pull(collection: CollectionName, signal?: AbortSignal): Promise<PullReport>;
  /** Forgets the checkpoint of `collection`: the next pull is a full traversal (data is kept). */
  reset(collection: CollectionName): Promise<void>;
}

/** Creates a {@link Puller}. */
export function createPuller(options: PullerOptions): Puller {
  const { db, client } = options;
  const pageLimit = options.pageLimit ?? PULL_DEFAULTS.pageLimit;
  const skew = options.skewMarginMs ?? PULL_DEFAULTS.skewMarginMs;
  const now = options.now ?? Date.now;

  async function pull(collection: CollectionName, signal?: AbortSignal): Promise<PullReport> {
    const first = await traverseOnce(collection, signal);
    if (!first.resumed) return first.report;
    // The resumed traversal read the records below its cursor before it was interrupted, maybe
    // long ago (a failed request, a revoked token, an app closed mid-pull). The next checkpoint
    // is at most its original start minus the margin, so one more traversal reads every record
    // changed since.
    const second = await traverseOnce(collection, signal);
    return combineReports(first.report, second.report);
  }

  /** One traversal: the interrupted one when a cursor is saved (`resumed`), else a new one from the checkpoint. */
  async function traverseOnce(collection: CollectionName, signal: AbortSignal | undefined): Promise<{ report: PullReport; resumed: boolean }> {
    const row: CheckpointRow = (await db._sync_checkpoints.get(collection)) ?? {
      collection,
      checkpoint: 0,
      initialDone: false,
    };
    // An interrupted traversal resumes at its last applied page, with its original start
    // time: records before the resume point may have changed since then.
    let cursor: TraversalCursor | undefined = row.cursor;
    const resumed = cursor !== undefined;
    const report: PullReport = { collection, pages: 0, received: 0, written: 0, quarantined: 0, mostlyRefused: false, checkpoint: row.checkpoint };
    const progress: CollectionProgress = { records: cursor?.records ?? 0, pages: 0, done: false };
    const versionStart = cursor?.versionStart ?? row.checkpoint;
    const elapsed = startStopwatch(now);
    const tables = [...applyTables(db, collection), db._sync_checkpoints];

    await traverse(
      client,
      collection,
      { direction: 'forward', versionStart, limit: pageLimitFor(collection, pageLimit), ...(cursor?.idStart ? { idStart: cursor.idStart } : {}) },
      signal,
      async (page: PageLike) => {
        const startedAt = cursor?.startedAt ?? traversalStart(page, row.checkpoint, elapsed());
        const base: TraversalCursor = cursor ?? { versionStart, idStart: undefined, startedAt, maxV: 0, records: 0 };
        // Refused records are quarantined; a parent refused only for a bad hydrated child is applied without it.
        const refused = sortRejected(collection, page.rejected, now);
        const records = refused.rescued.length > 0 ? [...page, ...refused.rescued] : page;
        const next: TraversalCursor = {
          versionStart,
          idStart: page.cursor ?? base.idStart,
          startedAt: base.startedAt,
          maxV: Math.max(base.maxV, highestVersion(records)),
          records: base.records + page.length,
        };
        const applied = await db.transaction('rw', tables, async () => {
          // The cursor is saved in the same transaction as the page it follows: a crash
          // between pages resumes exactly here, never past an unwritten page. The three are
          // sent together (one round trip to the database, not three); if one fails, none is kept.
          const [result] = await Promise.all([
            // Without a version filter a page is every record of its id range.
            applyServerRecords(db, collection, records, { contiguous: versionStart === 0 }),
            holdInQuarantine(db, refused.rows),
            db._sync_checkpoints.put({ ...row, cursor: next }),
          ]);
          return result;
        });
        cursor = next;
        report.written += applied.written + applied.deferred;
        report.pages++;
        report.received += page.length;
        report.quarantined += refused.rows.length;
        if (mostlyRefused(page.length + page.rejected.length, page.rejected.length - refused.rescued.length)) report.mostlyRefused = true;
        progress.pages++;
        progress.records = next.records;
        options.onProgress?.(collection, { ...progress });
      },
    );

    // Only a completed traversal moves the checkpoint; a cancelled one keeps its cursor.
    const finished = cursor;
    const checkpoint = finished ? nextCheckpoint(row.checkpoint, finished.maxV, finished.startedAt, skew) : row.checkpoint;
    await db._sync_checkpoints.put({
      ...row,
      checkpoint,
      cursor: undefined,
      lastSyncAt: now(),
      initialDone: row.initialDone || versionStart === 0,
    });
    report.checkpoint = checkpoint;
    // A resumed traversal is followed by another one: the pull is not done yet.
    if (!resumed) options.onProgress?.(collection, { ...progress, done: true });
    return { report, resumed };
  }

  async function reset(collection: CollectionName): Promise<void> {
    await db._sync_checkpoints.put({ collection, checkpoint: 0, cursor: undefined, initialDone: false });
  }

  return { pull, reset };
}

/** The report of a pull made of a resumed traversal and the one that followed it. */
function combineReports(resumed: PullReport, fresh: PullReport): PullReport {
  return {
    collection: fresh.collection,
    pages: resumed.pages + fresh.pages,
    received: resumed.received + fresh.received,
    written: resumed.written + fresh.written,
    quarantined: resumed.quarantined + fresh.quarantined,
    mostlyRefused: resumed.mostlyRefused || fresh.mostlyRefused,
    checkpoint: fresh.checkpoint,
  };
}

/** More than half of a page's records were refused (and not applied without a bad child). */
export function mostlyRefused(records: number, refused: number): boolean {
  return refused * 2 > records;
}
