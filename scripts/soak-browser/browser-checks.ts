/**
 * The checks of a browser soak run: the Node soak's (`checkSoak`: creates once, no acknowledged
 * write lost, every tab equal to the server, nothing stuck, nothing unhandled), with what only a
 * browser run has on top: no two tabs leading at once (`checkLeaders`), no error in any page, and
 * every id collision the run minted settled by moving the tab's create, never by overwriting the
 * other device's record. Pure: a test hands it a state with a known violation and sees it.
 */
import { checkSoak, type CheckResult, type SoakState, type Violation } from '../soak/checks.js';
import { markerOf } from '../soak/ledger.js';
import type { PageError } from '../engines/page-errors.js';
import type { CollectionName } from '../../src/schema/collections.js';
import type { Collision } from './back-office.js';
import { checkLeaders, describeOverlap, type LeaderCheck } from './leader-check.js';
import type { PageReport } from './page/soak-page.js';

/** Kinds of violation of a browser run. */
export type BrowserViolationKind = Violation['kind'] | 'two-leaders' | 'page-error' | 'collision';

/** One broken promise of a browser run. */
export interface BrowserViolation {
  kind: BrowserViolationKind;
  message: string;
  /** The record it is about, when it is about one. */
  subject?: { collection: CollectionName; id: string };
}

/** Everything the browser checks look at. */
export interface BrowserSoakState {
  soak: SoakState;
  /** What the pages reported (leadership, moved creates, their end). */
  reports: readonly PageReport[];
  /** Sessions the harness ended (reloaded, closed), with when it began to. */
  ended: ReadonlyMap<string, number>;
  /** When the run's checks began: sessions still alive end there. */
  runEnd: number;
  pageErrors: readonly PageError[];
  /**
   * Per tab (the id its page's error reporter keeps, `PageError.tab`): the stretches of time, by the
   * same clock as `PageError.at`, the harness was taking its page away: from a reload's call until
   * the new page booted, from a close's call on.
   */
  going: ReadonlyMap<string, readonly GoingStretch[]>;
  collisions: readonly Collision[];
}

/** A stretch of time the harness was reloading or closing a tab (`to` is infinite for a close). */
export interface GoingStretch {
  from: number;
  to: number;
}

/** What the browser checks found. */
export interface BrowserCheckResult {
  soak: CheckResult;
  leaders: LeaderCheck;
  /** Collisions minted on the server whose tab create was moved to another id (as the pages reported it). */
  collisionsMoved: number;
  violations: BrowserViolation[];
  /**
   * Errors from a page while the harness was reloading or closing its tab: counted apart, not as
   * violations. Firefox, tearing down a page whose Dexie transactions are under way, runs some of
   * its microtasks and not others, and Dexie's zone bookkeeping throws (`can't access property
   * "env", e is undefined`) from a page no one sees any more. An error without a time is never
   * counted here.
   */
  pageErrorsWhileGoing: PageError[];
}

/** Runs every check. */
export function checkBrowserSoak(state: BrowserSoakState): BrowserCheckResult {
  const soak = checkSoak(state.soak);
  const leaders = checkLeaders(state.reports, state.ended, state.runEnd);
  const violations: BrowserViolation[] = [...soak.violations];
  for (const overlap of leaders.overlaps) violations.push({ kind: 'two-leaders', message: describeOverlap(overlap) });
  const pageErrorsWhileGoing = state.pageErrors.filter((error) => wasGoing(state.going, error));
  for (const error of state.pageErrors) {
    if (!pageErrorsWhileGoing.includes(error)) violations.push({ kind: 'page-error', message: `tab ${error.tab} (${error.url}): ${error.kind}: ${error.message}` });
  }
  const moved = new Set(state.reports.flatMap((r) => (r.kind === 'moved' ? r.moves.map((m) => `${m.collection}|${m.from}`) : [])));
  let collisionsMoved = 0;
  for (const collision of state.collisions) {
    if (collision.state !== 'written') continue;
    if (moved.has(`${collision.collection}|${collision.id}`)) collisionsMoved++;
    const problem = collisionProblem(state.soak, collision);
    // With its record as the subject: the trace then holds every POST that carried the id, by tab and time.
    if (problem) violations.push({ kind: 'collision', message: `${collision.collection} ${collision.id} (step ${collision.step}): ${problem}`, subject: { collection: collision.collection, id: collision.id } });
  }
  return { soak, leaders, collisionsMoved, violations, pageErrorsWhileGoing };
}

function wasGoing(going: BrowserSoakState['going'], error: PageError): boolean {
  const at = error.at;
  return at !== undefined && (going.get(error.tab) ?? []).some((s) => at >= s.from && at <= s.to);
}

/** What is wrong with how a minted collision ended, if anything: the other device's record must stand, and the tab's be elsewhere. */
function collisionProblem(state: SoakState, collision: Collision): string | undefined {
  const records = state.server[collision.collection] ?? [];
  const theirs = records.find((r) => String(r.id) === collision.id);
  if (!theirs) return "the other device's record is gone from the server";
  if (collision.marker !== undefined && markerOf(theirs) === collision.marker) return "the tab's create was written over the other device's record";
  if (collision.marker === undefined) return undefined;
  const ours = records.filter((r) => markerOf(r) === collision.marker);
  if (ours.length === 0) return "the tab's create is on the server under no id";
  return undefined;
}
