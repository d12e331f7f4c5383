/**
 * Fault injection. Each request draws the same number of seeded random values whatever knobs are
 * on, so the same seed and the same request sequence give the same faults. Decisions, in order:
 * rate limit (token bucket), an extra random 429 (half of them without `Retry-After`), a 500, and,
 * after the handler ran, a dropped connection or a truncated body. Latency delays every request.
 */
import { Rng } from '../rng.js';
import { TokenBucket } from './token-bucket.js';

/** The fault knobs. All off by default. */
export interface FaultOptions {
  /** Share of requests answered 500 with a JSON body, before anything is applied (0..1). */
  errorRate?: number;
  /** Requests per second the token bucket lets through; 0 or absent = no rate limit. */
  rateLimitPerSecond?: number;
  /** Bucket size (burst). @default max(1, rateLimitPerSecond) */
  rateLimitBurst?: number;
  /** Share of requests answered 429 at random on top of the bucket (0..1). */
  extra429Rate?: number;
  /** Delay before every answer, in ms. */
  latencyMs?: number;
  /** Share of requests whose connection is destroyed without an answer, after the handler ran (0..1). */
  dropRate?: number;
  /** Share of 2xx answers whose JSON is cut mid-way, with an honest Content-Length (0..1). */
  truncateRate?: number;
}

/** What happens to one request. */
export interface FaultDecision {
  /** 429 with this Retry-After (seconds), or with none when `retryAfter` is undefined. */
  tooMany?: { retryAfter: number | undefined };
  error: boolean;
  drop: boolean;
  /** Where to cut the body, as a share of its length, or undefined to send it whole. */
  truncateAt: number | undefined;
}

/** Draws fault decisions for requests. */
export class Faults {
  private readonly rng: Rng;
  private bucket: TokenBucket | undefined;
  private knobs: Required<FaultOptions>;

  constructor(seed: number, knobs: Required<FaultOptions>) {
    this.rng = Rng.of(seed, 0xfa017);
    this.knobs = knobs;
    this.bucket = makeBucket(knobs);
  }

  /** Current knobs. */
  get options(): Readonly<Required<FaultOptions>> {
    return this.knobs;
  }

  /** Replaces every knob (the rate limiter starts full). */
  set(knobs: Required<FaultOptions>): void {
    this.knobs = knobs;
    this.bucket = makeBucket(knobs);
  }

  /** The fate of the next request. */
  decide(): FaultDecision {
    const [drop, extra, extraHeader, error, truncate, cut] = [this.rng.next(), this.rng.next(), this.rng.next(), this.rng.next(), this.rng.next(), this.rng.next()];
    const k = this.knobs;
    const decision: FaultDecision = {
      error: error < k.errorRate,
      drop: drop < k.dropRate,
      truncateAt: truncate < k.truncateRate ? 0.05 + cut * 0.9 : undefined,
    };
    const wait = this.bucket ? this.bucket.take() : 0;
    if (wait > 0) decision.tooMany = { retryAfter: wait };
    else if (extra < k.extra429Rate) decision.tooMany = { retryAfter: extraHeader < 0.5 ? 1 : undefined };
    return decision;
  }
}

function makeBucket(k: Required<FaultOptions>): TokenBucket | undefined {
  return k.rateLimitPerSecond > 0 ? new TokenBucket(k.rateLimitPerSecond, k.rateLimitBurst > 0 ? k.rateLimitBurst : Math.max(1, k.rateLimitPerSecond)) : undefined;
}
