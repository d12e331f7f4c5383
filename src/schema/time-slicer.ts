/**
 * Long work on the thread that also runs the app's UI (reading a page of records through the
 * schema, copying them into the database) is cut into slices of about {@link SLICE_BUDGET_MS}:
 * a page of 2,000 orders read in one go holds up a browser tab for hundreds of ms. The work
 * checks the clock as it goes and gives the event loop a turn only once a slice has run for its
 * budget, so work that is quick anyway (Node, a small page) never waits for a turn it does not need.
 */

/** The time a slice of work may run before it gives the event loop a turn (ms). */
export const SLICE_BUDGET_MS = 25;

/** The clock and the turn-giving of a {@link TimeSlicer}; tests replace them. */
export interface TimeSlicerOptions {
  /** How long a slice may run (ms). @default SLICE_BUDGET_MS */
  budgetMs?: number;
  /** Monotonic clock (ms). @default performance.now */
  now?: () => number;
  /** Gives the event loop a turn. @default yieldToEventLoop */
  yieldNow?: () => Promise<void>;
}

/** Cuts one piece of work into slices (see the module's comment). */
export interface TimeSlicer {
  /** True once the current slice has run for its budget. */
  due(): boolean;
  /** Gives the event loop a turn, then starts a new slice. */
  yield(): Promise<void>;
  /**
   * Starts a new slice without giving a turn here: the work has just waited for something that
   * gave the event loop its turns (a database request inside a transaction, which must not be
   * left without a pending request, or it commits).
   */
  restart(): void;
  /** Turns given so far. */
  readonly yields: number;
}

/** Creates a {@link TimeSlicer} whose first slice starts now. */
export function createTimeSlicer(options: TimeSlicerOptions = {}): TimeSlicer {
  const budget = options.budgetMs ?? SLICE_BUDGET_MS;
  const now = options.now ?? (() => performance.now());
  const yieldNow = options.yieldNow ?? yieldToEventLoop;
  let started = now();
  let yields = 0;
  return {
    due: () => now() - started >= budget,
    async yield() {
      yields++;
      await yieldNow();
      started = now();
    },
    restart() {
      started = now();
    },
    get yields() {
      return yields;
    },
  };
}

/** `scheduler.yield`, where the engine has it (Chromium, Firefox). */
interface YieldingScheduler {
  yield(): Promise<void>;
}

/**
 * The longest a turn waits for its message to itself before a timer gives it instead (ms): see
 * {@link yieldToEventLoop}.
 */
const LOST_MESSAGE_MS = 50;

/**
 * Gives the event loop a turn: `scheduler.yield()` where the engine has it (the work resumes
 * ahead of other queued work), else `setImmediate` (Node), else a message to itself (not
 * clamped to 4 ms as nested timers are; a timer gives the turn should the message be lost), else
 * a timer.
 */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof globalThis.setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      const turn = (): void => {
        clearTimeout(timer);
        channel.port1.close();
        resolve();
      };
      // WebKit can lose a message posted as its network process dies (it carries message ports):
      // the work waiting for it, a page read mid-sync, waited for ever. A timer gives the turn then.
      const timer = setTimeout(turn, LOST_MESSAGE_MS);
      channel.port1.onmessage = turn;
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
