/**
 * What the pages of a test may report as errors: a test names the errors it causes on purpose,
 * and everything else its pages report (uncaught errors, unhandled rejections, `console.error`,
 * sent to the app server by every page) fails it.
 */
import type { PageError } from '../../scripts/engines/page-errors.js';

/** The page errors of one test at a time. */
export interface PageErrorWatch {
  /** Lets this test's pages report errors whose `kind: message` matches `pattern`. */
  allow(pattern: RegExp): void;
  /** The reports since the last call that nothing allowed, as `kind: message (url)`; then starts the next test afresh. */
  unexpected(): string[];
}

/** Watches `errors`, the list a stage's app server fills. */
export function watchPageErrors(errors: PageError[]): PageErrorWatch {
  let seen = 0;
  let allowed: RegExp[] = [];
  return {
    allow(pattern) {
      allowed.push(pattern);
    },
    unexpected() {
      const fresh = errors.slice(seen).map((e) => `${e.kind}: ${e.message}`);
      const urls = errors.slice(seen).map((e) => e.url);
      seen = errors.length;
      const left = fresh.map((line, i) => [line, urls[i]] as const).filter(([line]) => !allowed.some((pattern) => pattern.test(line)));
      allowed = [];
      return left.map(([line, url]) => `${line} (${url})`);
    },
  };
}
