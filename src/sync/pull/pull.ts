import type { MirrorDb } from '../../db/mirror-db.js';
import { writesTogether } from '../../db/writes-together.js';
import type { CheckpointRow, TraversalCursor } from '../../db/sync-rows.js';
import type { Id } from '../../ids/index.js';
import type { CollectionName } from '../../schema/collections.js';
import { applyServerRecords, applyTables, highestVersion } from './apply-records.js';
import { nextCheckpoint, startStopwatch, traversalStart } from './checkpoint.js';
import { holdInQuarantine, refusalsOfPage } from './quarantine.js';
import type { PageLike, SyncClient } from '../sync-client.js';
import { PULL_DEFAULTS } from './pull-defaults.js';
import { openTraversal, pageLimitFor, traverseInGroups, type OpenTraversal } from './traverse.js';
import { inTransaction } from '../../db/in-transaction.js';

/** Progress of one collection's pull, as it goes. */
export interface CollectionProgress {
  /** Records applied in the current (or last) traversal. */
  records: number;
  /** Pages applied in the current (or last) traversal. */
  pages: number;
  /** True once the traversal completed. */
  done: boolean;
  /** The id the traversal has reached (its next `id_start`): where an estimate of what is left starts. */
  position?: Id | undefined;
  /** Records the traversal had applied before it was interrupted, when it resumed from its saved cursor. */
  resumedAt?: number | undefined;
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
  let ahead: ReadAhead | undefined;

  async function pull(collection: CollectionName, signal?: AbortSignal, pullOptions: PullOptions = {}): Promise<PullReport> {
    const first = await traverseOnce(collection, signal, pullOptions.next);
    if (!first.resumed) return first.report;
    // The resumed traversal read the records below its cursor before it was interrupted, maybe
    // long ago (a failed request, a revoked token, an app closed mid-pull). The next checkpoint
    // is at most its original start minus the margin, so one more traversal reads every record
    // changed since.
    const second = await traverseOnce(collection, signal, pullOptions.next);
    return combineReports(first.report, second.report);
  }

  /** One traversal: the interrupted one when a cursor is saved (`resumed`), else a new one from the checkpoint. */
  async function traverseOnce(collection: CollectionName, signal: AbortSignal | undefined, next: CollectionName | undefined): Promise<{ report: PullReport; resumed: boolean }> {
    const [saved, savedNext] = await db._sync_checkpoints.bulkGet(next ? [collection, next] : [collection]);
    const row: CheckpointRow = saved ?? freshRow(collection);
    const early = await takeReadAhead(collection, row);
    // An interrupted traversal resumes at its last applied page, with its original start
    // time: records before the resume point may have changed since then.
    let cursor: TraversalCursor | undefined = row.cursor;
    const resumed = cursor !== undefined;
    // A resumed traversal is followed by another of the same collection: the read-ahead waits for that one.
    const readAheadOf = resumed || !next ? undefined : { collection: next, row: savedNext ?? freshRow(next) };
    const report: PullReport = { collection, pages: 0, received: 0, written: 0, quarantined: 0, mostlyRefused: false, checkpoint: row.checkpoint };
    const progress: CollectionProgress = { records: cursor?.records ?? 0, pages: 0, done: false, ...(cursor ? { resumedAt: cursor.records } : {}) };
    const versionStart = cursor?.versionStart ?? row.checkpoint;
    const elapsed = early?.elapsed ?? startStopwatch(now);
    const tables = [...applyTables(db, collection), db._sync_checkpoints];

    await traverseInGroups(client, collection, early?.traversal ?? traversalQuery(collection, row), signal, pagesPerTransaction, async (pages: PageLike[]) => {
      const last = pages[pages.length - 1]!;
      if (last.done && readAheadOf) readAhead(readAheadOf.collection, readAheadOf.row, signal);
      const startedAt = cursor?.startedAt ?? traversalStart(pages[0]!, row.checkpoint, elapsed());
      const base: TraversalCursor = cursor ?? { versionStart, idStart: undefined, startedAt, maxV: 0, records: 0 };
      // Refused records are quarantined; a parent refused only for a bad hydrated child is applied without it.
      const refusals = pages.map((page) => refusalsOfPage(collection, page.rejected, now));
      const pageRecords = pages.map((page, i) => (refusals[i]!.rescued.length > 0 ? [...page, ...refusals[i]!.rescued] : page));
      const received = pages.reduce((n, page) => n + page.length, 0);
      const next: TraversalCursor = {
        versionStart,
        idStart: last.cursor ?? base.idStart,
        startedAt: base.startedAt,
        maxV: Math.max(base.maxV, ...pageRecords.map(highestVersion)),
        records: base.records + received,
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
            // Without a version filter the pages are every record of their id range.
            applyServerRecords(db, collection, records, { contiguous: versionStart === 0 }),
            holdInQuarantine(db, refusals[i]!.rows),
            i === pageRecords.length - 1 ? db._sync_checkpoints.put({ ...row, cursor: next }) : undefined,
          ]);
          count += result.written + result.deferred;
        }
        return count;
      });
      cursor = next;
      report.written += written;
      report.pages += pages.length;
      report.received += received;
      for (const [i, page] of pages.entries()) {
        report.quarantined += refusals[i]!.rows.length;
        if (mostlyRefused(page.length + page.rejected.length, page.rejected.length - refusals[i]!.rescued.length)) report.mostlyRefused = true;
      }
      progress.pages += pages.length;
      progress.records = next.records;
      progress.position = next.idStart;
      options.onProgress?.(collection, { ...progress });
    });

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
    dropReadAhead();
    await db._sync_checkpoints.put({ collection, checkpoint: 0, cursor: undefined, initialDone: false });
  }

  /** The query of the traversal that starts from `row`: its saved cursor, else its checkpoint. */
  function traversalQuery(collection: CollectionName, row: CheckpointRow): Parameters<typeof openTraversal>[2] {
    const { cursor } = row;
    return { direction: 'forward', versionStart: cursor?.versionStart ?? row.checkpoint, limit: pageLimitFor(collection, pageLimit), ...(cursor?.idStart ? { idStart: cursor.idStart } : {}) };
  }

  /** Requests the first page of the traversal of `collection` that would start from `row` now, for its pull to take. */
  function readAhead(collection: CollectionName, row: CheckpointRow, signal: AbortSignal | undefined): void {
    dropReadAhead();
    if (signal?.aborted) return;
    // Started before its request: the traversal's start is then taken earlier, on the safe side.
    const elapsed = startStopwatch(now);
    const traversal = openTraversal(client, collection, traversalQuery(collection, row));
    const cancel = (): void => void traversal.cancel(signal?.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    ahead = { collection, row, traversal, elapsed, release: () => signal?.removeEventListener('abort', cancel) };
  }

  /** Cancels the read-ahead, if any. */
  function dropReadAhead(): void {
    const dropped = ahead;
    ahead = undefined;
    dropped?.release();
    void dropped?.traversal.cancel();
  }

  /**
   * The read-ahead, if it is of `collection`, still starts where its traversal would start now
   * (`row`), and its first page came: it is then the pull's. Any other is cancelled.
   */
  async function takeReadAhead(collection: CollectionName, row: CheckpointRow): Promise<{ traversal: OpenTraversal; elapsed: () => number } | undefined> {
    const taken = ahead;
    if (!taken || taken.collection !== collection || !sameStart(taken.row, row)) {
      dropReadAhead();
      return undefined;
    }
    ahead = undefined;
    taken.release();
    // A read-ahead that failed (or was cancelled with the pull that started it) is asked again.
    const came = await taken.traversal.first.then(() => !taken.traversal.controller.signal.aborted, () => false);
    if (came) return taken;
    await taken.traversal.cancel();
    return undefined;
  }

  return { pull, reset };
}

/** A traversal's first page requested ahead of its pull (see {@link PullOptions.next}). */
interface ReadAhead {
  collection: CollectionName;
  /** The checkpoint row it starts from. */
  row: CheckpointRow;
  traversal: OpenTraversal;
  /** Time since just before its first request. */
  elapsed: () => number;
  /** Stops listening to the signal of the pull that started it. */
  release: () => void;
}

/** The checkpoint row of a collection never pulled. */
function freshRow(collection: CollectionName): CheckpointRow {
  return { collection, checkpoint: 0, initialDone: false };
}

/** Two checkpoint rows start the same traversal: same checkpoint, same saved cursor. */
function sameStart(a: CheckpointRow, b: CheckpointRow): boolean {
  return a.checkpoint === b.checkpoint && JSON.stringify(a.cursor ?? null) === JSON.stringify(b.cursor ?? null);
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
