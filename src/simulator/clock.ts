/**
 * The simulator's clock, in ms. It starts at a chosen instant, then runs with real time (so the
 * `Date` header, `_v` stamps and activity look natural) plus whatever {@link SimClock.advance} added.
 * Every write takes a {@link SimClock.stamp} that is strictly greater than the previous one, which
 * is what `_v` needs: two writes never share a version even within one millisecond.
 */
export class SimClock {
  private readonly origin: number;
  private offset = 0;
  private lastStamp = -Infinity;

  /**
   * @param start - the clock's reading at creation (ms since the Unix epoch)
   * @param elapsed - real elapsed ms since some fixed point; replaceable in tests
   */
  constructor(
    private readonly start: number,
    private readonly elapsed: () => number = () => performance.now(),
  ) {
    this.origin = elapsed();
  }

  /** Current simulated time in whole ms. */
  now(): number {
    return Math.floor(this.start + this.offset + (this.elapsed() - this.origin));
  }

  /** Moves the clock forward by `ms` (>= 0) and returns the new reading. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceClock: expected a non-negative number of ms, got ${ms}`);
    this.offset += ms;
    return this.now();
  }

  /** A write time: the current reading, or one more than the previous stamp when the clock has not moved. */
  stamp(): number {
    const now = this.now();
    this.lastStamp = now > this.lastStamp ? now : this.lastStamp + 1;
    return this.lastStamp;
  }
}
