import type { MirrorDb } from '../../db/mirror-db.js';
import { writesTogether } from '../../db/writes-together.js';
import type { CheckpointRow, TraversalCursor } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import { applyServerRecords, applyTables, highestVersion } from './apply-records.js';
import { nextCheckpoint, startStopwatch, traversalStart } from './checkpoint.js';
import { holdInQuarantine, refusalsOfPage } from './quarantine.js';
import type { PageLike, SyncClient } from '../sync-client.js';
import { PULL_DEFAULTS } from './pull-defaults.js';
import { openTraversal, pageLimitFor, traverseInGroups } from './traverse.js';
import { combineReports, startReport, tallyPages, type CollectionProgress, type PullReport } from './pull-report.js';
import { createReadAhead } from './read-ahead.js';
import { resumedDirection, savedCursor, traversalDirection, withCursor, type TraversalDirection } from './traversal-direction.js';
import { inTransaction } from '../../db/in-transaction.js';
import { compareIds } from '../../ids/id.js';
import { cutAtEdge, edgeOf, isBeforeEdge } from './edge.js';

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
   * The most pages of a traversal written in one transaction, with the cursor of the last: those
   * that arrived while the previous transaction ran (one, when the network is the slower side).
   * Pages keep being fetched during a write until this many wait. @default 8
   */
  pagesPerTransaction?: number;
  /**
   * Local clock (wall time): `lastSyncAt`, quarantine times, and one of the two measures of how
   * long a traversal's first response took (see {@link startStopwatch}). @default Date.now
   */
  now?: () => number;
  /** Called after every transaction of applied pages. */
  onProgress?: (collection: CollectionName, progress: CollectionProgress) => void;
  /**
   * The history window: the time (ms) before which `collection` keeps no record now, or
   * `undefined` when it keeps all. A first (backward) traversal stops at that time's id edge
   * (see `edgeOf`) and is complete there; a delta keeps a record created before it only where the
   * mirror still holds a copy or an edit of it. @default every collection unbounded
   */
  windowEdge?: (collection: CollectionName) => number | undefined;
}

/** Options of one {@link Puller.pull}. */
export interface PullOptions {
  /**
   * The collection the caller pulls next. Once this pull has received its last page, the first
   * page of `next` is requested while that last page is written: a read-ahead across collections,
   * as there is one within a traversal. It is written only by the pull of `next`, in order and with
   * its cursor, and only if that collection's checkpoint is still the one the page was asked from
   * (else it is dropped and asked again). Any other pull or reset, or `signal` aborting, cancels it.
   */
  next?: CollectionName | undefined;
  /**
   * A bounded first sync (a sync group with `days`): a time (ms). A backward first traversal
   * stops at this time's id edge (see `edgeOf`): the records of a page created before it are not
   * written, and the traversal pauses with its cursor at the last record written, the row's
   * `pausedAt` set. The next pull of the collection without `pauseAt` continues it, older records
   * first, from its original start: the checkpoint rule is unchanged, and what changed meanwhile
   * comes with the delta that follows. A traversal already below the edge is not asked again. No
   * effect on a delta, nor where the history window's edge is later (the window completes it).
   */
  pauseAt?: number | undefined;
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
  pull(collection: CollectionName, signal?: AbortSignal, options?: PullOptions): Promise<PullReport>;
  /** Forgets the checkpoint of `collection`: the next pull is a full traversal (data is kept). */
  reset(collection: CollectionName): Promise<void>;
}

/** Creates a {@link Puller}. */
export function createPuller(options: PullerOptions): Puller {
  const { db, client } = options;
  const pageLimit = options.pageLimit ?? PULL_DEFAULTS.pageLimit;
  const skew = options.skewMarginMs ?? PULL_DEFAULTS.skewMarginMs;
  const pagesPerTransaction = options.pagesPerTransaction ?? PULL_DEFAULTS.pagesPerTransaction;
  const now = options.now ?? Date.now;

  /** The first page of the collection pulled next, requested ahead (see {@link PullOptions.next}). */
  const ahead = createReadAhead(client, now, traversalQuery);

  async function pull(collection: CollectionName, signal?: AbortSignal, pullOptions: PullOptions = {}): Promise<PullReport> {
    const first = await traverseOnce(collection, signal, pullOptions.next, pullOptions.pauseAt);
    if (!first.resumed || first.report.paused) return first.report;
    // The resumed traversal read the records below its cursor before it was interrupted, maybe
    // long ago (a failed request, a revoked token, an app closed mid-pull). The next checkpoint
    // is at most its original start minus the margin, so one more traversal reads every record
    // changed since.
    const second = await traverseOnce(collection, signal, pullOptions.next, undefined);
    return combineReports(first.report, second.report);
  }

  /** One traversal: the interrupted one when a cursor is saved (`resumed`), else a new one from the checkpoint. */
  async function traverseOnce(
    collection: CollectionName,
    signal: AbortSignal | undefined,
    next: CollectionName | undefined,
    pauseAt: number | undefined,
  ): Promise<{ report: PullReport; resumed: boolean }> {
    const [saved, savedNext] = await db._sync_checkpoints.bulkGet(next ? [collection, next] : [collection]);
    const row: CheckpointRow = saved ?? freshRow(collection);
    const early = await ahead.take(collection, row);
    // An interrupted traversal resumes at its last applied page, with its original start
    // time: records before the resume point may have changed since then.
    let cursor: TraversalCursor | undefined = savedCursor(row);
    const resumed = cursor !== undefined;
    // A resumed traversal is followed by another of the same collection: the read-ahead waits for that one.
    const readAheadOf = resumed || !next ? undefined : { collection: next, row: savedNext ?? freshRow(next) };
    const report = startReport(collection, row.checkpoint);
    const versionStart = cursor?.versionStart ?? row.checkpoint;
    // A new traversal takes the direction of its collection; a resumed one keeps its own.
    const direction = directionOf(collection, row);
    // A traversal a sync group paused at its edge goes on (as planned) when no edge is asked of it now.
    const continued = cursor !== undefined && row.pausedAt !== undefined && pauseAt === undefined;
    const progress: CollectionProgress = {
      records: cursor?.records ?? 0,
      pages: 0,
      done: false,
      direction,
      ...(cursor ? (continued ? { continuedAt: cursor.records } : { resumedAt: cursor.records }) : {}),
    };
    const elapsed = early?.elapsed ?? startStopwatch(now);
    const tables = [...applyTables(db, collection), db._sync_checkpoints];
    const { stopAt, pauses, outside, window } = edgesOf(collection, direction, versionStart, pauseAt);
    if (pauses && cursor !== undefined && (pausedAtOrAfter(row, pauseAt!) || (cursor.idStart !== undefined && isBeforeEdge({ id: cursor.idStart }, stopAt!)))) {
      // Paused at or past this edge already (an earlier run): the pages left are all older.
      await early?.traversal.cancel();
      report.paused = true;
      return { report, resumed };
    }
    // Set by the pages' writes: the traversal stopped at its edge.
    const edge = { reached: false };

    await traverseInGroups(client, collection, early?.traversal ?? traversalQuery(collection, row), signal, pagesPerTransaction, async (pages: PageLike[]) => {
      const startedAt = cursor?.startedAt ?? traversalStart(pages[0]!, row.checkpoint, elapsed());
      const base: TraversalCursor = cursor ?? { versionStart, idStart: undefined, startedAt, maxV: 0, records: 0, direction };
      // Refused records are quarantined; a parent refused only for a bad hydrated child is applied without it.
      let refusals = pages.map((page) => refusalsOfPage(collection, page.rejected, now));
      let pageRecords = pages.map((page, i) => (refusals[i]!.rescued.length > 0 ? [...page, ...refusals[i]!.rescued] : page));
      let idStart = pages[pages.length - 1]!.cursor ?? base.idStart;
      if (stopAt !== undefined) {
        // Records created before the edge are not written, and the pages after it not read: the
        // traversal ends here, its cursor after the last record written (so a continuation reads
        // the rest of this page again, and nothing is skipped).
        const cut = cutAtEdge(pageRecords, stopAt);
        if (cut.reached) {
          edge.reached = true;
          pages = pages.slice(0, cut.kept.length);
          refusals = refusals.slice(0, cut.kept.length);
          pageRecords = cut.kept;
          idStart = lowestId(cut.kept) ?? base.idStart;
        }
      }
      const last = pages[pages.length - 1]!;
      if (last.done && !edge.reached && readAheadOf) ahead.start(readAheadOf.collection, readAheadOf.row, signal);
      const next: TraversalCursor = {
        versionStart,
        idStart,
        startedAt: base.startedAt,
        maxV: Math.max(base.maxV, ...pageRecords.map(highestVersion)),
        records: base.records + pageRecords.reduce((n, page) => n + page.length, 0),
        direction,
      };
      const written = await inTransaction(db, 'rw', tables, async (db) => {
        // The cursor is saved in the same transaction as the pages it follows: a crash between
        // transactions resumes exactly here, never past an unwritten page; if one write fails,
        // none of the transaction is kept. Each page is applied on its own, in order, so the
        // main thread reads and plans one page at a stretch however many share the commit. A
        // page's writes, its quarantine rows and (with the last page) the cursor are sent
        // together: one round trip to the database, not three.
        let count = 0;
        for (const [i, records] of pageRecords.entries()) {
          const [result] = await writesTogether([
            // Without a version filter the pages are every record of their id range (in either
            // direction: the range is the page's lowest to highest id).
            applyServerRecords(db, collection, records, { contiguous: versionStart === 0, ...(outside ? { outside } : {}) }),
            holdInQuarantine(db, refusals[i]!.rows),
            i === pageRecords.length - 1 ? db._sync_checkpoints.put(withCursor(edge.reached && pauses ? { ...row, pausedAt: pauseAt } : row, next)) : undefined,
          ]);
          count += result.written + result.deferred;
        }
        return count;
      });
      cursor = next;
      tallyPages(report, pages, refusals, written);
      progress.pages += pages.length;
      progress.records = next.records;
      progress.position = next.idStart;
      options.onProgress?.(collection, { ...progress });
      return edge.reached ? 'stop' : undefined;
    });

    if (edge.reached && pauses) {
      // Paused, not complete: the cursor stays, the checkpoint does not move.
      report.paused = true;
      options.onProgress?.(collection, { ...progress, done: true });
      return { report, resumed };
    }

    // Only a completed traversal moves the checkpoint; a cancelled one keeps its cursor.
    const finished = cursor;
    const checkpoint = finished ? nextCheckpoint(row.checkpoint, finished.maxV, finished.startedAt, skew) : row.checkpoint;
    await db._sync_checkpoints.put({
      ...withCursor(row, undefined),
      checkpoint,
      lastSyncAt: now(),
      initialDone: row.initialDone || versionStart === 0,
      // A first traversal that stopped at the window's edge holds everything created since.
      ...(versionStart === 0 && window !== undefined ? { historyEdge: window } : {}),
    });
    report.checkpoint = checkpoint;
    // A resumed traversal is followed by another one: the pull is not done yet.
    if (!resumed) options.onProgress?.(collection, { ...progress, done: true });
    return { report, resumed };
  }

  async function reset(collection: CollectionName): Promise<void> {
    ahead.drop();
    await db._sync_checkpoints.put({ collection, checkpoint: 0, cursor: undefined, initialDone: false });
  }

  /** The query of the traversal that starts from `row`: its saved cursor, else its checkpoint. */
  function traversalQuery(collection: CollectionName, row: CheckpointRow): Parameters<typeof openTraversal>[2] {
    const cursor = savedCursor(row);
    return { direction: directionOf(collection, row), versionStart: cursor?.versionStart ?? row.checkpoint, limit: pageLimitFor(collection, pageLimit), ...(cursor?.idStart ? { idStart: cursor.idStart } : {}) };
  }

  /**
   * The edges of a traversal: where a backward first one stops (`stopAt`, the later of the pause
   * and the window's edge), whether stopping there pauses it (`pauses`: the pause is the later),
   * and the window's edge, before which records are kept only where a copy or an edit is.
   */
  function edgesOf(collection: CollectionName, direction: TraversalDirection, versionStart: number, pauseAt: number | undefined): { stopAt: string | undefined; pauses: boolean; outside: string | undefined; window: number | undefined } {
    const window = options.windowEdge?.(collection);
    const outside = window === undefined ? undefined : edgeOf(window);
    if (direction !== 'backward' || versionStart !== 0) return { stopAt: undefined, pauses: false, outside, window };
    const pauses = pauseAt !== undefined && (window === undefined || pauseAt > window);
    return { stopAt: pauses ? edgeOf(pauseAt) : outside, pauses, outside, window };
  }

  return { pull, reset };
}

/** True when the traversal of `row` paused at an edge no later than `time` (the records from there on are in). */
function pausedAtOrAfter(row: CheckpointRow, time: number): boolean {
  return row.pausedAt !== undefined && row.pausedAt <= time;
}

/** The lowest id of `pages`' records: where a backward traversal stands after them. */
function lowestId(pages: readonly (readonly { id: string }[])[]): string | undefined {
  let lowest: string | undefined;
  for (const page of pages) for (const { id } of page) if (lowest === undefined || compareIds(id, lowest) < 0) lowest = id;
  return lowest;
}

/**
 * The direction of the traversal that starts from `row`: the saved cursor's, so an interrupted
 * traversal never changes it, else the one a new traversal from the checkpoint takes.
 */
function directionOf(collection: CollectionName, row: CheckpointRow): TraversalDirection {
  const cursor = savedCursor(row);
  return cursor ? resumedDirection(cursor) : traversalDirection(collection, row.checkpoint);
}

/** The checkpoint row of a collection never pulled. */
function freshRow(collection: CollectionName): CheckpointRow {
  return { collection, checkpoint: 0, initialDone: false };
}
