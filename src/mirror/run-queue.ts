/**
 * The run queue: everything that pulls or pushes (the schedule's runs, `syncNow()`, the push
 * after an edit, `resync()`, `reconcile()`) runs through it, one after the other, so that the
 * pulls and pushes of one mirror never overlap.
 *
 * What runs outside the schedule belongs to a lifetime: `stop()`, `close()` and the loss of
 * leadership abort it (its signal), and a new lifetime begins for what is called afterwards.
 */
export interface RunQueue {
  /** Runs `fn` after every run queued before it; its failure does not stop the queue. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** The signal of the current lifetime: aborted by {@link renew}. */
  readonly signal: AbortSignal;
  /** Aborts what the current lifetime has under way (with `reason`) and begins a new one. */
  renew(reason: DOMException): void;
  /** Begins a new lifetime and lets what the current one has under way carry on (on `start()`). */
  begin(): void;
  /** Resolves once the last run queued so far has ended. */
  settled(): Promise<void>;
  /** Resolves once the queue is empty, runs queued while waiting included. */
  drained(): Promise<void>;
}

/** Creates a {@link RunQueue}. */
export function createRunQueue(): RunQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let lifetime = new AbortController();

  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const result = tail.then(fn, fn);
      tail = result.catch(() => undefined);
      return result;
    },
    get signal() {
      return lifetime.signal;
    },
    renew(reason) {
      lifetime.abort(reason);
      lifetime = new AbortController();
    },
    begin() {
      lifetime = new AbortController();
    },
    async settled() {
      await tail;
    },
    async drained() {
      for (let last: unknown; last !== tail; ) {
        last = tail;
        await last;
      }
    },
  };
}
