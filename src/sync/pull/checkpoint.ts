import type { PageLike } from '../sync-client.js';

/**
 * The safe checkpoint rule (docs/design.md, decision 3).
 *
 * Records change while a traversal runs: a record with a small id edited mid-traversal can
 * carry a `_v` below the highest `_v` seen and, if the checkpoint jumped to that maximum, it
 * would be skipped forever. So the next `version_start` is bounded by the server time at the
 * traversal's start minus a skew margin: every write that happened after that moment has a
 * `_v` at or above it and will be seen by the next traversal. `version_start` is inclusive
 * (`_v >= value`), so the overlap only re-reads records whose `_v` is not newer than ours,
 * and applying those is a no-op.
 *
 * `maxV + 1` is used when it is lower: every record with `_v <= maxV` that existed when the
 * traversal started has been seen, and any later write gets a `_v` above the start time.
 * The checkpoint never moves backwards.
 *
 * The rule holds in either direction of traversal (a first sync of the history runs `backward`,
 * newest first), because it rests on two facts that do not depend on the order of the pages:
 * - a record the traversal had not yet read when it changed is read later, as it then is (a
 *   change never moves a record's id, so it stays in the part of the id range still ahead);
 * - every record created or changed after the traversal started (after `startedAt` on the
 *   server's clock) gets a `_v` at or above `startedAt`, so at or above the next checkpoint.
 * A backward traversal never reaches a record created after it started (its id is above the first
 * page's, behind the traversal), and reads a record changed after its page as it was: both are in
 * the next delta traversal, by the second fact, as a forward traversal's are.
 */
export function nextCheckpoint(previous: number, maxV: number, startedAt: number, skewMarginMs: number): number {
  if (maxV <= 0) return previous;
  const candidate = Math.min(maxV + 1, startedAt - skewMarginMs);
  return Math.max(previous, candidate);
}

/**
 * The traversal's start on the server's clock, the bound of the next checkpoint. With a `Date`
 * header: its time moved back by how long the first response took, `elapsedMs` (the header is
 * itself rounded down). A negative `elapsedMs` counts as 0: a bound later than the header would let
 * the checkpoint pass records written during the traversal. Without one (a browser hides `Date`
 * from cross-origin responses unless the server exposes it), the local clock cannot be trusted
 * against the server's, so the bound is a time the server has certainly passed: the highest `_v` of
 * the first page, or the previous checkpoint. That only makes the next traversal overlap more; it
 * never skips a record.
 */
export function traversalStart(page: PageLike, previousCheckpoint: number, elapsedMs: number): number {
  if (page.serverTime !== undefined) return page.serverTime - Math.max(0, elapsedMs);
  let maxV = previousCheckpoint;
  for (const record of page) if (record._v > maxV) maxV = record._v;
  return maxV;
}

/**
 * Starts measuring how long a traversal's first response takes; the returned function gives the
 * whole milliseconds since the start (rounded up), never negative. Two clocks are read and the
 * larger figure wins: `now` (the wall clock, or a test's clock) and, where the runtime has one, the
 * monotonic `performance.now()`. A wall clock set back mid-request (NTP, the user) then cannot
 * shrink the figure, and one set forward only makes it larger, which moves the checkpoint's bound
 * earlier: more overlap next time, never a skipped record.
 */
export function startStopwatch(now: () => number): () => number {
  const wallStart = now();
  const monotonic = monotonicClock();
  const monotonicStart = monotonic?.() ?? 0;
  // Whole milliseconds, rounded up (a checkpoint is an integer `version_start`; up is the safe side).
  return () => Math.ceil(Math.max(0, now() - wallStart, monotonic ? monotonic() - monotonicStart : 0));
}

/** `performance.now` where the runtime has it (browsers, workers, Node), bound to `performance`. */
function monotonicClock(): (() => number) | undefined {
  const performance = (globalThis as { performance?: { now?: () => number } }).performance;
  return typeof performance?.now === 'function' ? () => performance.now!() : undefined;
}
