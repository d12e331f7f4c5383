/**
 * The rate limit: a token bucket refilled at `ratePerSecond`, holding at most `burst` tokens.
 * A request takes one token; without one it gets 429 and a `Retry-After` in whole seconds.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes a token: `0` when granted, else the seconds to wait (at least 1) before one is there. */
  take(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerSecond));
  }
}
