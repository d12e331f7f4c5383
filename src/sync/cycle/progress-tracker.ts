import type { MirrorDb } from '../../db/mirror-db.js';
import type { CollectionName } from '../../schema/collections.js';
import { savedCursor, type CollectionProgress } from '../pull/index.js';
import type { SyncClient } from '../sync-client.js';
import {
  estimate,
  estimateFromWindows,
  FIRST_PROBES,
  idWindows,
  newestDensity,
  MAX_PROBES,
  probeCount,
  PROBE_RECORDS,
  PROBES_AT_ONCE,
  roughRemaining,
  RUN_QUESTIONS,
  splitLargest,
  type IdWindow,
  type TraversalSample,
} from './progress-estimate.js';
import type { CollectionSyncProgress, SyncProgress } from './sync-progress.js';
import type { Id } from '../../ids/id.js';

/** Options of {@link createProgressTracker}. */
export interface ProgressTrackerOptions {
  /** Where a traversal's `version_start` is read (its saved cursor), for the probes to ask the same records. */
  db: MirrorDb;
  /** Asked for the records where a traversal ends and for the probes (small pages, in the traversal's direction). */
  client: Pick<SyncClient, 'list'>;
  /** Where the progress is published (the mirror's `progress`). */
  progress: ProgressSink;
  /** The most probes one traversal asks (see `probesPerTraversal`). @default MAX_PROBES */
  maxProbes?: number;
  /** The most questions asked between two {@link ProgressTracker.runStarted} calls, every collection together. @default RUN_QUESTIONS */
  runQuestions?: number;
}

/** Holds the published progress: read as it stands, replaced by a change of it. */
export interface ProgressSink {
  readonly value: SyncProgress;
  update(change: (current: SyncProgress) => SyncProgress): void;
}

/** Turns the pull's progress into {@link SyncProgress}, estimates included. */
export interface ProgressTracker {
  /** The pull's progress of one collection, after each applied page and when its traversal is done. */
  onProgress(collection: CollectionName, progress: CollectionProgress): void;
  /** A sync run starts: the estimate may ask its questions again, up to the run's budget. */
  runStarted(): void;
  /** Cancels the questions still out; the progress no longer changes. */
  close(): void;
}

/** One collection's traversal under way, as far as the estimate goes. */
interface Traversal {
  /** Where ids lie on the line the estimate walks (see {@link axisOf}). */
  axis: Axis;
  /** Positions on {@link axis}. */
  samples: TraversalSample[];
  /** The windows ahead, once every probe answered. */
  windows: IdWindow[] | undefined;
  /** Records per id among the newest records. */
  newestDensity: number | undefined;
  asked: boolean;
  /** The traversal is done: no more probes. */
  over: boolean;
}

/**
 * The line a traversal's estimate walks: its ids in the order it reads them, so that the records
 * it has left always lie above its position, as `progress-estimate.ts` counts them. A `forward`
 * traversal walks the ids themselves; a `backward` one (newest first) walks them negated, and the
 * questions that count its records go the other way: where it ends is its oldest records (a small
 * page forward from the start), and a window is probed by a small page backward from its start.
 * The same number of questions either way.
 */
interface Axis {
  /** An id's place on the line. */
  place(id: Id): Id;
  /** The id at a place on the line: a probe's `id_start`. */
  id(place: bigint): Id;
  /** The direction of the traversal, and of its probes. */
  direction: 'forward' | 'backward';
  /** The other one: the question for the records where the traversal ends. */
  toEnd: 'forward' | 'backward';
}

/** The {@link Axis} of a traversal in `direction` (absent: forward). */
function axisOf(direction: 'forward' | 'backward' | undefined): Axis {
  if (direction === 'backward') return { place: (id) => (-BigInt(id)).toString(), id: (place) => (-place).toString(), direction, toEnd: 'forward' };
  return { place: (id) => id, id: (place) => place.toString(), direction: 'forward', toEnd: 'backward' };
}

/**
 * Creates a {@link ProgressTracker}. A traversal that reaches its second page asks the server
 * for the records where it will end (the collection's newest, a small page backward by id; its
 * oldest for a traversal newest first, see {@link Axis}), then probes the ids between
 * its position and that one (see `progress-estimate.ts`): the first pass `PROBES_AT_ONCE` at a
 * time (the estimate shows once it is counted), the refinements one at a time, at most
 * `maxProbes` small pages. The probes are bounded by what they gain: none for a traversal of one
 * page (it is done before it asks) or whose end the records where it ends reach back to (they
 * count what is left exactly, `PROBE_RECORDS` at most), and
 * at most `runQuestions` questions in a run, every collection together. The questions never hold
 * the pull up, and a failed one only leaves the estimate out.
 */
export function createProgressTracker(options: ProgressTrackerOptions): ProgressTracker {
  const { client } = options;
  const traversals = new Map<CollectionName, Traversal>();
  const maxProbes = options.maxProbes ?? MAX_PROBES;
  const runQuestions = options.runQuestions ?? RUN_QUESTIONS;
  /** Questions asked since the run started. */
  let asked = 0;
  /** Takes `n` questions from the run's budget (fewer when less is left); returns how many were taken. */
  const spend = (n: number) => {
    const taken = Math.max(0, Math.min(n, runQuestions - asked));
    asked += taken;
    return taken;
  };
  const controller = new AbortController();
  const signal = controller.signal;

  const publish = (collection: CollectionName, entry: CollectionSyncProgress) =>
    options.progress.update((s) => withCollection(s, collection, entry));

  const estimateOf = (traversal: Traversal, progress: CollectionProgress) => {
    if (progress.done) return estimate(progress.records);
    if (!traversal.windows || progress.position === undefined) return undefined;
    return estimateFromWindows(progress.records, traversal.axis.place(progress.position), traversal.windows, traversal.newestDensity);
  };

  /**
   * Counts the windows ahead of `traversal`, publishing the estimate once the first pass is done
   * and again after each probe that refines it; stops once the traversal is over (done, a new
   * one, the mirror closed).
   */
  async function countAhead(collection: CollectionName, traversal: Traversal): Promise<void> {
    const current = () => traversals.get(collection) === traversal && !traversal.over && !signal.aborted;
    const row = await options.db._sync_checkpoints.get(collection);
    // The probes ask what the traversal asks: a delta counts only the records changed since its start.
    const versionStart = savedCursor(row)?.versionStart ?? 0;
    const { axis } = traversal;
    // The question for where it ends is worth asking only with a probe left to follow it.
    if (runQuestions - asked < 2 || spend(1) === 0) return;
    // The records where the traversal ends (the newest, going forward), and how dense the ids are there.
    const last = await client.list(collection, { direction: axis.toEnd, limit: PROBE_RECORDS, versionStart, signal });
    const newest = last[0] && axis.place(last[0].id);
    traversal.newestDensity = newestDensity(last.map((record) => BigInt(axis.place(record.id))));
    const position = traversal.samples.at(-1)?.position;
    if (newest === undefined || position === undefined || !current()) return;
    const ahead = last.map((record) => BigInt(axis.place(record.id))).filter((place) => place > BigInt(position)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (ahead.length < last.length || last.length + last.rejected.length < PROBE_RECORDS) {
      // The records where it ends reach back to where it stands: what is left is counted, no probe needed.
      traversal.windows = [{ start: BigInt(position), end: BigInt(newest) + 1n, ids: ahead, full: false }];
      republish(collection, traversal);
      return;
    }
    const rough = roughRemaining(traversal.samples, newest);
    const first = spend(probeCount(rough ?? 0, Math.min(FIRST_PROBES, maxProbes)));
    if (first === 0) return;
    const windows = idWindows(position, newest, first);
    const probe = async (window: IdWindow) => {
      const page = await client.list(collection, { direction: axis.direction, idStart: axis.id(window.start), versionStart, limit: PROBE_RECORDS, signal });
      window.ids = page.map((record) => BigInt(axis.place(record.id)));
      window.full = page.length + page.rejected.length >= PROBE_RECORDS;
      return current();
    };
    for (let i = 0; i < windows.length; i += PROBES_AT_ONCE) {
      const answered = await Promise.all(windows.slice(i, i + PROBES_AT_ONCE).map(probe));
      if (!answered.every(Boolean)) return;
    }
    // The estimate reads a copy: a window split and not yet probed would count nothing meanwhile.
    const publishWindows = () => {
      traversal.windows = windows.map((w) => ({ ...w }));
      republish(collection, traversal);
    };
    publishWindows();
    // The rest of the probes go where most records ahead are guessed to be, as many as the size is worth.
    const worth = probeCount(estimateFromWindows(0, position, windows, traversal.newestDensity).remaining, maxProbes) - windows.length;
    for (let i = 0; i < worth && asked < runQuestions; i++) {
      const right = splitLargest(windows, traversal.samples.at(-1)!.position, traversal.newestDensity);
      if (!right) return;
      spend(1);
      if (!(await probe(right))) return;
      publishWindows();
    }
  }

  /** Publishes the collection's progress again with the estimate as it now stands, while its traversal runs. */
  function republish(collection: CollectionName, traversal: Traversal): void {
    const current = options.progress.value.collections[collection];
    if (traversals.get(collection) === traversal && !signal.aborted && current && !current.done) publish(collection, { ...current, estimate: estimateOf(traversal, current) });
  }

  function ask(collection: CollectionName, traversal: Traversal): void {
    traversal.asked = true;
    // The estimate is an extra: a refused or failed question leaves it out, and the sync goes on.
    countAhead(collection, traversal).catch(() => undefined);
  }

  return {
    onProgress(collection, progress) {
      let traversal = traversals.get(collection);
      if (!traversal || progress.pages <= 1) {
        traversal = { axis: axisOf(progress.direction), samples: [], windows: undefined, newestDensity: undefined, asked: false, over: false };
        traversals.set(collection, traversal);
      }
      if (progress.done) traversal.over = true;
      if (progress.position !== undefined && !progress.done) traversal.samples.push({ records: progress.records, position: traversal.axis.place(progress.position) });
      if (!traversal.asked && !progress.done && traversal.samples.length >= 2 && !signal.aborted) ask(collection, traversal);
      publish(collection, { ...progress, estimate: estimateOf(traversal, progress) });
    },
    runStarted() {
      asked = 0;
    },
    close() {
      controller.abort();
      traversals.clear();
    },
  };
}

/** `progress` with one collection's entry replaced, and the totals computed again. */
export function withCollection(progress: SyncProgress, collection: CollectionName, entry: CollectionSyncProgress): SyncProgress {
  const collections = { ...progress.collections, [collection]: entry };
  let records = 0;
  let remaining: number | undefined;
  for (const c of Object.values(collections)) {
    records += c.records;
    if (!c.done && c.estimate) remaining = (remaining ?? 0) + c.estimate.remaining;
  }
  return { collections, records, remaining };
}
