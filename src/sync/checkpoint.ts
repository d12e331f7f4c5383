/**
 * The safe checkpoint rule (DESIGN.md decision 3).
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
 */
export function nextCheckpoint(previous: number, maxV: number, startedAt: number, skewMarginMs: number): number {
  if (maxV <= 0) return previous;
  const candidate = Math.min(maxV + 1, startedAt - skewMarginMs);
  return Math.max(previous, candidate);
}
