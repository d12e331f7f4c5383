/**
 * The `signal` an app passes to a call that runs in the sync's queue (`syncNow`, `resync`,
 * `reconcile`, `takeOverEdits`), as ky and the client take one. Aborting it ends the call with
 * `signal.reason` (a `DOMException` named `AbortError` unless the app gave another reason), at
 * once while the call still waits for its turn, else at the next page, batch or step; what was
 * written by then stays, since every page and every step is written in a transaction of its own.
 */
export interface CallerSignal {
  /** Aborting it ends the call with the signal's `reason`. */
  signal?: AbortSignal | undefined;
}

/**
 * A signal aborted when `own` (the sync's own: a stop, a close, the lead lost) or the caller's
 * `caller` is, with the reason of the first; `release` drops its listeners once the work is done.
 */
export function joinSignals(own: AbortSignal, caller: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  if (!caller) return { signal: own, release: () => undefined };
  const joined = new AbortController();
  const sources = [own, caller];
  const onAbort = (event: Event) => joined.abort((event.target as AbortSignal).reason);
  const release = () => sources.forEach((source) => source.removeEventListener('abort', onAbort));
  const first = sources.find((source) => source.aborted);
  if (first) joined.abort(first.reason);
  else sources.forEach((source) => source.addEventListener('abort', onAbort, { once: true }));
  return { signal: joined.signal, release };
}

/**
 * `work`, or the caller's abort if it comes before the work has `begun`: a call waiting behind a
 * long run ends as soon as its caller gives up (the work, in its turn, sees the signal aborted and
 * does nothing). Once begun, the work itself ends at the abort, and the call settles when it has:
 * nothing the call started writes after it rejected.
 */
export function untilAborted<T>(work: Promise<T>, caller: AbortSignal | undefined, begun: () => boolean = () => false): Promise<T> {
  if (!caller) return work;
  if (caller.aborted && !begun()) return Promise.reject(caller.reason as Error);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      if (!begun()) reject(caller.reason as Error);
    };
    caller.addEventListener('abort', onAbort, { once: true });
  });
  // The work's own failure is still observed when the abort won the race.
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => caller.removeEventListener('abort', onAbort));
}
