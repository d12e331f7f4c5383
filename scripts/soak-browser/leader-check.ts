/**
 * At most one leader at any moment, from what each tab reported: every page load (a session)
 * reports its `status.leader` changes with the time it saw them (`Date.now()` in the page), and
 * reports `pagehide` when it goes. From those the check builds each session's spans of leading
 * and looks for two sessions whose spans overlap by more than {@link LEADER_TOLERANCE_MS}.
 *
 * Why the reports can be compared without slack for their delay: every tab and the harness read
 * one clock (one machine), and the order of events is on the check's side. A session that gets
 * the lock reports after it got it (its span starts late, never early); one that lets it go by
 * stopping reports in the same task as it releases the lock, and one that goes with its page
 * reports in `pagehide`, which runs before the page is torn down and its lock handed on (its span
 * ends early, never late). A session that went without a `pagehide` report (a frozen tab closed,
 * whose script could not run) ends where the harness began to close or reload it: before the
 * lock was let go. Late reporting can hide an overlap, never make one up. What is left is the
 * reading of the clock itself: whole milliseconds, and Firefox coarsens `Date.now()` to 1 ms with
 * jitter inside it, so two readings of one instant may be up to 2 ms apart; the tolerance is
 * 5 ms, a little above that.
 */
import type { PageReport } from './page/soak-page.js';

/** Overlap allowed between two sessions' spans of leading (see the file's comment). */
export const LEADER_TOLERANCE_MS = 5;

/** One session's span of leading. */
export interface LeaderSpan {
  session: string;
  slot: number;
  from: number;
  to: number;
  /** How the span's end is known. */
  end: 'status' | 'pagehide' | 'closed by the harness' | 'next load of the tab' | 'end of the run';
}

/** Two sessions leading at once. */
export interface LeaderOverlap {
  first: LeaderSpan;
  second: LeaderSpan;
  ms: number;
}

/** What the check found. */
export interface LeaderCheck {
  spans: LeaderSpan[];
  overlaps: LeaderOverlap[];
  /** Times the lead passed from one session to another. */
  handOvers: number;
}

/**
 * Builds the spans and finds overlaps. `ended` gives, per session the harness ended (a reload, a
 * close), when it began to; `runEnd` closes the spans of sessions still alive.
 */
export function checkLeaders(reports: readonly PageReport[], ended: ReadonlyMap<string, number>, runEnd: number): LeaderCheck {
  const bySession = new Map<string, PageReport[]>();
  for (const report of reports) {
    const list = bySession.get(report.session) ?? [];
    list.push(report);
    bySession.set(report.session, list);
  }
  const boots = reports.filter((r) => r.kind === 'boot').sort((a, b) => a.at - b.at);
  const spans: LeaderSpan[] = [];
  for (const [session, list] of bySession) {
    list.sort((a, b) => a.at - b.at);
    const slot = list[0]!.slot;
    const gone = list.find((r) => r.kind === 'gone');
    const next = boots.find((b) => b.slot === slot && b.session !== session && b.at > list[0]!.at);
    const [sessionEnd, how]: [number, LeaderSpan['end']] = gone
      ? [gone.at, 'pagehide']
      : ended.has(session)
        ? [ended.get(session)!, 'closed by the harness']
        : next
          ? [next.at, 'next load of the tab']
          : [runEnd, 'end of the run'];
    let from: number | undefined;
    for (const report of list) {
      if (report.kind !== 'leader') continue;
      if (report.leader && from === undefined) from = report.at;
      else if (!report.leader && from !== undefined) {
        spans.push({ session, slot, from, to: report.at, end: 'status' });
        from = undefined;
      }
    }
    if (from !== undefined) spans.push({ session, slot, from, to: Math.max(from, sessionEnd), end: how });
  }
  spans.sort((a, b) => a.from - b.from);
  const overlaps: LeaderOverlap[] = [];
  for (let i = 0; i < spans.length; i++) {
    for (let j = i + 1; j < spans.length && spans[j]!.from < spans[i]!.to; j++) {
      const [a, b] = [spans[i]!, spans[j]!];
      if (a.session === b.session) continue;
      const ms = Math.min(a.to, b.to) - b.from;
      if (ms > LEADER_TOLERANCE_MS) overlaps.push({ first: a, second: b, ms });
    }
  }
  let handOvers = 0;
  for (let i = 1; i < spans.length; i++) if (spans[i]!.session !== spans[i - 1]!.session) handOvers++;
  return { spans, overlaps, handOvers };
}

/** An overlap said plainly. */
export function describeOverlap(o: LeaderOverlap): string {
  const span = (s: LeaderSpan) => `tab ${s.slot} (load ${s.session}) led from ${iso(s.from)} to ${iso(s.to)} (end known by ${s.end})`;
  return `two leaders at once for ${o.ms} ms: ${span(o.first)}; ${span(o.second)}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}
