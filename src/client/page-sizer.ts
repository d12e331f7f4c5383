import { HttpError } from '../errors/index.js';

/** The orders list's response cap (spec: Limits): returned JSON cannot exceed 6 MB. */
export const ORDERS_MAX_RESPONSE_BYTES = 6_000_000;

/**
 * Statuses an orders page too big for the cap fails with (the spec does not show which; the
 * simulator answers 500). The pager answers them by halving the page instead of waiting.
 */
export const SIZE_FAILURE_STATUSES: ReadonlySet<number> = new Set([500, 413]);

/** True for the plain `HttpError` of a {@link SIZE_FAILURE_STATUSES} status: a page too big for the server. */
export function isSizeFailure(error: unknown): boolean {
  return error instanceof HttpError && error.constructor === HttpError && SIZE_FAILURE_STATUSES.has(error.status);
}

/** Share of a cap a page may be expected to fill. */
const HEADROOM = 0.75;

/** How fast a learned ceiling relaxes per good page, so one stray failure does not shrink pages for good. */
const CEILING_RELAX = 1.02;

/** Chooses the `limit` of each page of one traversal. */
export interface PageSizer {
  /** The limit to ask for next. */
  readonly limit: number;
  /** Learns from a page that came back: `bytes` of body for `rawCount` records. */
  observe(bytes: number, rawCount: number): void;
  /** Halves the limit after the server failed on a page's size; false when it cannot shrink further. */
  shrink(): boolean;
  /** Never asks for fewer than `floor` again, even above the target (an `id_start`-repeating server needs 2). */
  raiseFloor(floor: number): void;
}

/** Settings of {@link createPageSizer}. */
export interface PageSizerOptions {
  /** The limit the caller asked for; not exceeded except by `raiseFloor`. */
  target: number;
  /** Response size the server cannot exceed; `undefined` when the collection has no such cap. */
  maxBytes: number | undefined;
}

/**
 * A page sizer. With a byte cap (orders) it tracks bytes per record and keeps the expected page
 * under the cap with headroom. A size failure halves the limit and teaches a ceiling (a limit
 * that failed); the limit grows back by doubling on good pages, up to the target and to 3/4 of
 * that ceiling, which itself relaxes slowly. Without a cap the limit stays the target.
 */
export function createPageSizer(options: PageSizerOptions): PageSizer {
  const { maxBytes } = options;
  let target = options.target;
  let limit = target;
  let floor = 1;
  let bytesPerRecord = 0;
  let ceiling = Number.POSITIVE_INFINITY;
  return {
    get limit() {
      return limit;
    },
    observe(bytes, rawCount) {
      if (maxBytes === undefined || rawCount === 0) return;
      // The largest records seen lately rule: a page of fat orders can follow a page of thin ones.
      bytesPerRecord = Math.max(bytesPerRecord * 0.9, bytes / rawCount);
      const fits = Math.floor((maxBytes * HEADROOM) / bytesPerRecord);
      ceiling *= CEILING_RELAX;
      limit = Math.max(floor, Math.min(target, fits, limit * 2, Math.floor(ceiling * HEADROOM)));
    },
    shrink() {
      if (limit <= floor) return false;
      ceiling = Math.min(ceiling, limit);
      limit = Math.max(floor, Math.floor(limit / 2));
      return true;
    },
    raiseFloor(value) {
      floor = Math.max(floor, value);
      target = Math.max(target, floor);
      limit = Math.max(limit, floor);
    },
  };
}
