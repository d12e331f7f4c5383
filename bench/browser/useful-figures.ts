/**
 * The time-to-useful benchmark's figures for one engine and tenant, reduced from its rounds, and
 * how they are printed. Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { median, range } from '../stats.js';
import type { TimeToUsefulResult } from './in-page/time-to-useful.js';

/** One engine's rounds on one tenant. Times in seconds, one value per round that reached it. */
export interface UsefulFigures {
  engine: string;
  version: string;
  tenant: string;
  /** Records on the server. */
  records: number;
  /** Orders of the server's last 24 h in the first round (the same tenant each round, so much the same count). */
  lastDayOrders: number;
  rounds: TimeToUsefulResult[];
  usefulSeconds: number[];
  syncSeconds: number[];
  /** Useful / the first sync's end, per round that reached both. */
  usefulShare: number[];
  /** Records applied before useful, per round that reached it. */
  recordsAtUseful: number[];
  /** Each sync group's completion (s), by name, per round that saw it. */
  groupSeconds: Record<string, number[]>;
}

/** Reduces one engine's rounds on a tenant. */
export function usefulFigures(engine: string, version: string, tenant: string, records: number, lastDayOrders: number, rounds: TimeToUsefulResult[]): UsefulFigures {
  const seconds = (ms: number | null) => (ms === null ? [] : [ms / 1000]);
  const groupSeconds: Record<string, number[]> = {};
  for (const round of rounds) for (const [name, ms] of Object.entries(round.groupsMs)) (groupSeconds[name] ??= []).push(ms / 1000);
  return {
    engine,
    version,
    tenant,
    records,
    lastDayOrders,
    rounds,
    usefulSeconds: rounds.flatMap((r) => seconds(r.usefulMs)),
    syncSeconds: rounds.flatMap((r) => seconds(r.syncMs)),
    usefulShare: rounds.flatMap((r) => (r.usefulMs === null || r.syncMs === null ? [] : [r.usefulMs / r.syncMs])),
    recordsAtUseful: rounds.flatMap((r) => (r.recordsAtUseful === null ? [] : [r.recordsAtUseful])),
    groupSeconds,
  };
}

/** One round's line. */
export function usefulRoundLine(engine: string, tenant: string, index: number, r: TimeToUsefulResult): string {
  const s = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
  const useful = r.usefulMs === null ? `NOT useful (missing ${r.missing ?? 'nothing read'})` : `useful at ${s(r.usefulMs)} after ${r.recordsAtUseful ?? 0} records`;
  const groups = Object.entries(r.groupsMs)
    .sort(([, a], [, b]) => a - b)
    .map(([name, ms]) => `${name} ${s(ms)}`).join(', ');
  const end = r.bounded ? 'sync stopped at the limit' : `sync end ${s(r.syncMs)} (${r.records} records)`;
  return `  ${engine} ${tenant} round ${index + 1}: ${useful}; ${end}; groups: ${groups || 'none'}; ${r.checks} reads, longest ${r.longestCheckMs.toFixed(1)} ms`;
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const spanOf = (xs: readonly number[], format: (x: number) => string) => {
  const { min, max } = range(xs);
  return xs.length > 1 ? ` (rounds ${format(min)}–${format(max)})` : '';
};
const sec = (x: number) => `${x.toFixed(2)} s`;
const times = (xs: readonly number[]) => (xs.length === 0 ? 'n/a' : `${sec(median(xs))}${spanOf(xs, sec)}`);

/** Prints one engine's figures on a tenant. */
export function printUseful(f: UsefulFigures): void {
  console.log(`\n${f.version}, ${f.tenant} tenant (${n0(f.records)} records, ${f.lastDayOrders} orders in the last 24 h), ${f.rounds.length} new tablet(s), medians:`);
  console.log(`    useful: ${times(f.usefulSeconds)} (registers, products with prices, the last day's orders with their items, read from the mirror)`);
  console.log(`    the whole first sync: ${times(f.syncSeconds)}`);
  if (f.usefulShare.length > 0) console.log(`    useful / whole first sync: ${median(f.usefulShare).toFixed(2)}x${spanOf(f.usefulShare, (x) => `${x.toFixed(2)}x`)}`);
  if (f.recordsAtUseful.length > 0) {
    const records = median(f.recordsAtUseful);
    console.log(`    records applied before useful: ${n0(records)}${spanOf(f.recordsAtUseful, n0)}, ${((records / f.records) * 100).toFixed(0)}% of the tenant`);
  }
  const byTime = Object.entries(f.groupSeconds).sort(([, a], [, b]) => median(a) - median(b));
  for (const [name, seconds] of byTime) console.log(`    whenSynced('${name}'): ${times(seconds)}`);
  const missed = f.rounds.filter((r) => r.usefulMs === null);
  if (missed.length > 0) console.log(`    NOT useful in ${missed.length} round(s): ${missed.map((r) => (r.bounded ? 'stopped at the limit first' : `missing ${r.missing ?? '?'} at the sync's end`)).join('; ')}`);
}
