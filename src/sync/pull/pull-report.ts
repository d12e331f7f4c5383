import type { Id } from '../../ids/index.js';
import type { CollectionName } from '../../schema/collections.js';
import type { PageLike } from '../sync-client.js';
import type { Refusals } from './quarantine.js';

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
  /**
   * The traversal's order: `backward` (newest first) for the first full traversal of a history
   * collection, `forward` for every other. Records left lie below {@link position} when it is
   * `backward`, above it when `forward`.
   */
  direction?: 'forward' | 'backward' | undefined;
  /**
   * Records the traversal had applied before it was interrupted, when it resumed from its saved
   * cursor (an earlier run failed or the app was closed mid-pull). Not set when the traversal goes
   * on from where a sync group with `days` paused it (see {@link continuedAt}).
   */
  resumedAt?: number | undefined;
  /**
   * Records the traversal had applied when this pull took it up again from where a sync group with
   * `days` paused it at its edge (`recent`: the last day's orders are in, the older history
   * follows): the first sync going on as planned, not a resumption after an interruption. A
   * continuation interrupted in its turn is reported so again when taken up (the checkpoint keeps
   * the edge, not how far past it the interrupted run got).
   */
  continuedAt?: number | undefined;
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
  /**
   * True when the pull's first traversal paused at the edge of `PullOptions.pauseAt` (a sync group
   * with `days`): it is not complete, and a later pull continues it.
   */
  paused?: boolean;
}

/** The report of a pull that has done nothing yet, from `checkpoint`. */
export function startReport(collection: CollectionName, checkpoint: number): PullReport {
  return { collection, pages: 0, received: 0, written: 0, quarantined: 0, mostlyRefused: false, checkpoint };
}

/** Counts a transaction's pages into `report`: `written` records applied, with each page's refusals. */
export function tallyPages(report: PullReport, pages: readonly PageLike[], refusals: readonly Refusals[], written: number): void {
  report.written += written;
  report.pages += pages.length;
  for (const [i, page] of pages.entries()) {
    report.received += page.length;
    report.quarantined += refusals[i]!.rows.length;
    if (mostlyRefused(page.length + page.rejected.length, page.rejected.length - refusals[i]!.rescued.length)) report.mostlyRefused = true;
  }
}

/** The report of a pull made of a resumed traversal and the one that followed it. */
export function combineReports(resumed: PullReport, fresh: PullReport): PullReport {
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
