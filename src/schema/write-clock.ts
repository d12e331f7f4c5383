/**
 * The time that "current time" defaults of the write faces take (`date_created`,
 * customers' `date_updated`). Zod default functions receive no context, so the time of one
 * validation is pinned here for its (synchronous) duration by {@link withWriteTime}.
 */
let pinned: number | undefined;

/** Current time in ms for write defaults: the pinned time during {@link withWriteTime}, else `Date.now()`. */
export function currentTime(): number {
  return pinned ?? Date.now();
}

/**
 * Runs `run` with write defaults stamped `now` (when given). `run` must be synchronous: zod parses
 * without awaiting, so the pin cannot leak into another caller's validation.
 */
export function withWriteTime<T>(now: number | undefined, run: () => T): T {
  if (now === undefined) return run();
  const previous = pinned;
  pinned = now;
  try {
    return run();
  } finally {
    pinned = previous;
  }
}
