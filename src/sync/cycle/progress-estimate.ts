import type { Id } from '../../ids/id.js';

/**
 * What a collection's traversal is estimated to have left. The service gives no count, so the
 * estimate comes from the id range still ahead: a traversal walks ids upwards, from where it
 * stands to the server's newest id (a traversal newest first walks its ids negated, so the same
 * holds: see the progress tracker's `Axis`), and that range is cut into windows whose records are counted
 * by a probe each (a small page from the window's start, see `windowCount`). Ids start with
 * their creation time and shops grow, so records crowd towards the newest ids: the windows whose
 * count is a guess from a density are split where most records are guessed to be, and probed
 * again, as long as the traversal's size is worth the requests (see `splitLargest`).
 */
export interface ProgressEstimate {
  /** Records the traversal is estimated to have left (0 once it is done). */
  remaining: number;
  /** Records so far plus {@link remaining}: the traversal's estimated size. */
  total: number;
  /** Records so far over {@link total}, 0 to 1. */
  fraction: number;
}

/** Where a traversal stood after one of its pages. */
export interface TraversalSample {
  /** Records applied so far in the traversal (a resumed one counts those before the interruption). */
  records: number;
  /** The id the traversal has reached (its next `id_start`). */
  position: Id;
}

/**
 * A range of ids `[start, end)` ahead of a traversal, and what its probe saw: the ids of a small
 * page asked from its start.
 */
export interface IdWindow {
  start: bigint;
  end: bigint;
  /** The probe's ids, ascending (those past `end` included: they show the window's end is near). */
  ids: bigint[];
  /** The probe got as many records as it asked: the collection goes on past its last id. */
  full: boolean;
}

/** Records one probe asks for: a quarter of a default page, enough to see a window's density. */
export const PROBE_RECORDS = 100;
/** Windows of the first pass over the ids ahead. */
export const FIRST_PROBES = 8;
/** The most probes a traversal asks (one request each). */
export const MAX_PROBES = 32;
/**
 * The most probes a traversal asks when the run pulls several sync groups: `status.groups` already
 * shows a first sync's progress group by group, so a finer estimate of one collection gains less.
 */
export const MAX_PROBES_BESIDE_GROUPS = 16;
/**
 * The most questions (probes, and the questions for where traversals end) the estimate asks in one
 * sync run, every collection together: the service limits its rate at a threshold it does not
 * publish, and the estimate is an extra that must not spend what the pull needs.
 */
export const RUN_QUESTIONS = 96;
/** The most probes a traversal asks when the run pulls the collections of `groups` sync groups. */
export function probesPerTraversal(groups: number): number {
  return groups > 1 ? MAX_PROBES_BESIDE_GROUPS : MAX_PROBES;
}

/**
 * Probes of the first pass asked at once. The estimate shows once every window of the first pass
 * is counted: one probe after the other, each took a round trip, about as long as one of the
 * traversal's own pages, so the estimate came ten pages in. A browser opens about six connections
 * to one host: four leave room for the traversal's next page and the next collection's first page,
 * so the probes never hold the pull up.
 */
export const PROBES_AT_ONCE = 4;
/**
 * Records ahead per probe: a traversal expected to have fewer left asks fewer probes, so that the
 * probes' records stay within about 5% of the traversal's (a delta of a few pages asks one).
 */
const RECORDS_PER_PROBE = 1_000;

/**
 * A first guess of the records left, from the density of records per id over the pages so far
 * (oldest first) and the server's newest id. Too rough to show (shops grow and sell by day, so
 * the density changes along the ids); it bounds how many probes the first pass asks. Undefined
 * until two pages are known at different ids.
 */
export function roughRemaining(samples: readonly TraversalSample[], newestId: Id): number | undefined {
  if (samples.length < 2) return undefined;
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const span = Number(BigInt(last.position) - BigInt(first.position));
  if (!(span > 0)) return undefined;
  const ahead = Number(BigInt(newestId) - BigInt(last.position));
  return ahead > 0 ? ((last.records - first.records) / span) * ahead : 0;
}

/** How many probes a traversal with about `records` left is worth (at least one, at most `max`). */
export function probeCount(records: number, max = MAX_PROBES): number {
  return Math.min(max, Math.max(1, Math.ceil(records / RECORDS_PER_PROBE)));
}

/**
 * Cuts `[from, to]` (the traversal's position and the newest id, inclusive) into `count` windows
 * of equal id width, not yet probed.
 */
export function idWindows(from: Id, to: Id, count: number): IdWindow[] {
  const start = BigInt(from);
  const end = BigInt(to) + 1n;
  if (end <= start) return [];
  const width = (end - start + BigInt(count) - 1n) / BigInt(count);
  const windows: IdWindow[] = [];
  for (let s = start; s < end; s += width) windows.push({ start: s, end: s + width < end ? s + width : end, ids: [], full: false });
  return windows;
}

/**
 * A start density more than this many times the end's is taken for a burst (an import, a stock
 * take booked at one moment): thousands of ids a millisecond apart, which would count millions
 * if spread over the window.
 */
const BURST = 4;

/**
 * The records in `window` by its probe. Ids past the window's end leave the count exact; a probe
 * that was not full ended at the collection's end, also exact; a full probe inside the window
 * counts its own records and guesses the rest of the window from densities: the probe's (its
 * records over the ids they spanned) at the window's start, at most {@link BURST} times
 * `endDensity`, and `endDensity` at its end (the next window's, or the newest records'),
 * averaged. Records crowd towards the newest ids, so the start's density alone would count too
 * few.
 */
export function windowCount(window: IdWindow, endDensity?: number): number {
  if (!guessed(window)) {
    let inside = 0;
    for (const id of window.ids) if (id < window.end) inside++;
    return inside;
  }
  const end = endDensity ?? probeDensity(window);
  const start = Math.min(probeDensity(window), BURST * end);
  const rest = Number(window.end - window.ids[window.ids.length - 1]!) - 1;
  return window.ids.length + ((start + end) / 2) * Math.max(0, rest);
}

/** The records per id a window's probe saw from the window's start. */
export function probeDensity(window: IdWindow): number {
  if (!guessed(window)) return windowCount(window) / Number(window.end - window.start);
  return window.ids.length / (Number(window.ids[window.ids.length - 1]! - window.start) + 1);
}

/**
 * The records per id just below the newest id, from the newest records (descending, the newest
 * first); undefined with fewer than two.
 */
export function newestDensity(ids: readonly bigint[]): number | undefined {
  if (ids.length < 2) return undefined;
  return ids.length / (Number(ids[0]! - ids[ids.length - 1]!) + 1);
}

/** Every window's count (see {@link windowCount}), each with the density where the next one starts. */
export function windowCounts(windows: readonly IdWindow[], newest?: number): number[] {
  return windows.map((w, i) => windowCount(w, i + 1 < windows.length ? probeDensity(windows[i + 1]!) : newest));
}

/** True when the window's count is a density's guess (its probe ended inside it), not a count. */
export function guessed(window: IdWindow): boolean {
  return window.full && window.ids.length > 0 && window.ids[window.ids.length - 1]! < window.end;
}

/**
 * Splits the window ahead of `position` whose guessed count is largest in two at its middle: the
 * left half keeps the probe's ids, the right half is returned to be probed. Undefined when every
 * count ahead is exact.
 */
export function splitLargest(windows: IdWindow[], position: Id, newest?: number): IdWindow | undefined {
  const at = BigInt(position);
  const counts = windowCounts(windows, newest);
  let largest = -1;
  windows.forEach((w, i) => {
    // A window the traversal has passed, or nearly, is not worth a request.
    const ahead = w.start >= at ? w.start + (w.end - w.start) / 2n : w.end - at > (w.end - w.start) / 2n ? at : undefined;
    if (ahead === undefined || !guessed(w) || w.end - w.start <= 1n) return;
    if (largest < 0 || counts[i]! > counts[largest]!) largest = i;
  });
  if (largest < 0) return undefined;
  const split = windows[largest]!;
  const mid = split.start + (split.end - split.start) / 2n;
  const right: IdWindow = { start: mid, end: split.end, ids: [], full: false };
  split.end = mid;
  windows.splice(largest + 1, 0, right);
  return right;
}

/**
 * The estimate once the windows are counted: the records of the windows ahead of `position`,
 * a window it is inside counted for the part ahead of it. `newest`: the density of the newest
 * records (see {@link newestDensity}).
 */
export function estimateFromWindows(records: number, position: Id, windows: readonly IdWindow[], newest?: number): ProgressEstimate {
  const at = BigInt(position);
  const counts = windowCounts(windows, newest);
  let remaining = 0;
  windows.forEach((w, i) => {
    if (w.end <= at) return;
    if (w.start >= at) remaining += counts[i]!;
    else remaining += (counts[i]! * Number(w.end - at)) / Number(w.end - w.start);
  });
  return estimate(records, Math.round(remaining));
}

/** An estimate of `records` so far and `remaining` left. */
export function estimate(records: number, remaining = 0): ProgressEstimate {
  const total = records + remaining;
  return { remaining, total, fraction: total === 0 ? 1 : records / total };
}
