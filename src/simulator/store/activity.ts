/**
 * Activity mode: registers keep selling on a timer while clients sync, so every traversal races
 * real writes (new orders at the top, stock rows, payments). Timers are unref'd and stop with
 * the simulator.
 */
import { ValidationError } from '../../errors/index.js';

/** Options of activity mode. */
export interface ActivityOptions {
  /**
   * Sales per second, spread over all registers (0 < n <= 1000).
   * @default 2
   */
  ordersPerSecond?: number;
}

/** Runs `sellOnce` about `ordersPerSecond` times a second until stopped. */
export class Activity {
  private timer: ReturnType<typeof setInterval> | undefined;
  private owed = 0;
  private last = 0;

  constructor(private readonly sellOnce: () => void) {}

  /** True while selling. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Starts (or retunes) selling. */
  start(opts: ActivityOptions = {}): void {
    const rate = opts.ordersPerSecond ?? 2;
    if (typeof rate !== 'number' || !(rate > 0 && rate <= 1000)) {
      throw new ValidationError(`activity: ordersPerSecond must be a number in (0, 1000], got ${String(rate)}`, { issues: [{ path: ['activity', 'ordersPerSecond'], message: 'must be a number in (0, 1000]' }] });
    }
    this.stop();
    this.last = performance.now();
    this.owed = 0;
    const period = Math.max(10, Math.min(250, 1000 / rate));
    this.timer = setInterval(() => {
      const now = performance.now();
      this.owed += ((now - this.last) / 1000) * rate;
      this.last = now;
      // Never more than a second's worth at once, should the process have stalled.
      this.owed = Math.min(this.owed, Math.max(1, rate));
      while (this.owed >= 1) {
        this.owed--;
        this.sellOnce();
      }
    }, period);
    this.timer.unref();
  }

  /** Stops selling. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
