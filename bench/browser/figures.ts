/**
 * The browser benchmark's figures for one engine in one run, reduced from what the page measured,
 * and how they are printed. A run's figures are also written as JSON, so that several runs can be
 * read together (`spread.ts`).
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { createHash } from 'node:crypto';
import { median, range } from '../stats.js';
import type { FirstSyncRun } from './first-sync.js';
import type { HeartbeatReport } from './in-page/heartbeat.js';
import type { LiveQueryResult } from './in-page/live-query.js';
import type { SearchResult } from './in-page/search.js';
import type { LargeFigures } from './large-sync.js';
import { printProfile, type ProfileSummary } from './profile-summary.js';

/** The first sync of one tenant. Rates in records/s; each list holds one value per round. */
export interface SyncFigures {
  tenant: string;
  /** Where it ran, when not in the engine as the engine layer drives it. */
  where?: string;
  records: number;
  rounds: number;
  /** A round was stopped at the time limit: the rates are of what it did until then. */
  bounded: boolean;
  mirrorRates: number[];
  baselineRates: number[];
  /** The baseline written into the mirror's own tables and indexes. */
  indexedRates: number[];
  /** fetch + `JSON.parse` alone, from the baseline's rounds. */
  transportRates: number[];
  /** Mirror / baseline per round. */
  ratios: number[];
  /** Mirror / indexed baseline per round. */
  indexedRatios: number[];
  /** Indexed baseline / bare baseline per round: what the mirror's default indexes cost a write. */
  indexCostRatios: number[];
  /** Each mirror round's seconds. */
  mirrorSeconds: number[];
  /** The heartbeats during each mirror round, and during each baseline round. */
  mirrorHeartbeats: HeartbeatReport[];
  baselineHeartbeats: HeartbeatReport[];
}

/** A live query's notification after one write, on a mirror of `tenant`. */
export interface LiveFigures {
  tenant: string;
  /** Where it ran, when not in the engine as the engine layer drives it. */
  where?: string;
  tableRows: number;
  fromCommitMs: number[];
  fromSaveMs: number[];
}

/** `searchProducts` over the catalogue. */
export interface SearchFigures {
  products: number;
  loadSeconds: number;
  /** Every query's time (ms), by kind. */
  times: Record<string, number[]>;
  baseline: number[];
  /** A digest of every query's result ids in order: equal digests, equal ranking. */
  rankingDigest: string;
  /** Each query's result ids, by kind (kept in memory to name the queries that differ). */
  results: Record<string, string[]>;
}

/** One engine's figures in one run. */
export interface EngineFigures {
  engine: string;
  version: string;
  /** The smallest step of the page's `performance.now()` (ms): no figure is finer than this. */
  timerResolutionMs?: number;
  sync: SyncFigures[];
  live: LiveFigures[];
  search?: SearchFigures;
  profile?: ProfileSummary;
  /** `LARGE=1`: the ~1M-record tenant's rounds. */
  large?: LargeFigures;
  /** What this engine could not measure, and why. */
  notes: string[];
}

/** Reduces a tenant's rounds to its figures; `where` says where they ran when not as the engine layer drives the engine. */
export function syncFigures(run: FirstSyncRun, where?: string): SyncFigures {
  const rate = (records: number, ms: number) => records / (ms / 1000);
  const mirrorRates = run.rounds.map((r) => rate(r.mirror.records, r.mirror.ms));
  const baselineRates = run.rounds.map((r) => rate(r.baseline.records, r.baseline.ms));
  const indexedRates = run.rounds.map((r) => rate(r.indexed.records, r.indexed.ms));
  return {
    tenant: run.tenant,
    ...(where ? { where } : {}),
    records: run.records,
    rounds: run.rounds.length,
    bounded: run.rounds.some((r) => r.mirror.bounded || r.baseline.bounded || r.indexed.bounded),
    mirrorRates,
    baselineRates,
    indexedRates,
    transportRates: run.rounds.map((r) => rate(r.baseline.records, r.baseline.transportMs)),
    ratios: mirrorRates.map((m, i) => m / baselineRates[i]!),
    indexedRatios: mirrorRates.map((m, i) => m / indexedRates[i]!),
    indexCostRatios: indexedRates.map((x, i) => x / baselineRates[i]!),
    mirrorSeconds: run.rounds.map((r) => r.mirror.ms / 1000),
    mirrorHeartbeats: run.rounds.map((r) => r.mirror.heartbeat),
    baselineHeartbeats: run.rounds.map((r) => r.baseline.heartbeat),
  };
}

/** Reduces the live query's timings. */
export function liveFigures(tenant: string, result: LiveQueryResult, where?: string): LiveFigures {
  return { tenant, ...(where ? { where } : {}), tableRows: result.tableRows, fromCommitMs: result.fromCommitMs, fromSaveMs: result.fromSaveMs };
}

/**
 * Reduces the search's timings and digests its ranking, kinds in the order of `kinds` (an engine's
 * automation may hand an object's keys back in another order).
 */
export function searchFigures(result: SearchResult, kinds: readonly string[]): SearchFigures {
  const inOrder = <T>(byKind: Record<string, T>) => Object.fromEntries(kinds.map((kind) => [kind, byKind[kind]!]));
  const results = inOrder(result.results);
  return {
    products: result.products,
    loadSeconds: result.loadMs / 1000,
    times: inOrder(result.times),
    baseline: result.baseline,
    rankingDigest: createHash('sha256').update(JSON.stringify(results)).digest('hex').slice(0, 16),
    results,
  };
}

/** The figure a heartbeat report gives for one measure, null when the engine has none. */
type HeartbeatMeasure = 'timerMaxGapMs' | 'frameMaxGapMs' | 'longTaskMaxMs' | 'longFrameMaxMs';

/** Median over rounds of one heartbeat measure; null when no round has it. */
export function heartbeatMedian(reports: readonly HeartbeatReport[], measure: HeartbeatMeasure): number | null {
  const values = reports.map((r) => r[measure]).filter((v): v is number => v !== null);
  return values.length === 0 ? null : median(values);
}

/** The headline figures of a run, by name: what `spread.ts` compares across runs. */
export function headline(figures: EngineFigures): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const s of figures.sync) {
    const tenant = s.where ? `${s.tenant} (${s.where})` : s.tenant;
    out[`${tenant}: mirror records/s`] = median(s.mirrorRates);
    out[`${tenant}: baseline records/s`] = median(s.baselineRates);
    out[`${tenant}: ratio mirror / baseline`] = median(s.mirrorRates) / median(s.baselineRates);
    out[`${tenant}: indexed baseline records/s`] = median(s.indexedRates);
    out[`${tenant}: ratio mirror / indexed baseline`] = median(s.mirrorRates) / median(s.indexedRates);
    out[`${tenant}: ratio indexed / bare baseline`] = median(s.indexedRates) / median(s.baselineRates);
    out[`${tenant}: longest task, timer heartbeat (ms)`] = heartbeatMedian(s.mirrorHeartbeats, 'timerMaxGapMs');
    out[`${tenant}: longest task, frame heartbeat (ms)`] = heartbeatMedian(s.mirrorHeartbeats, 'frameMaxGapMs');
    out[`${tenant}: longest task, Long Tasks API (ms)`] = heartbeatMedian(s.mirrorHeartbeats, 'longTaskMaxMs');
  }
  for (const l of figures.live) {
    const tenant = l.where ? `${l.tenant} (${l.where})` : l.tenant;
    out[`${tenant}: live query, commit to subscriber (ms)`] = median(l.fromCommitMs);
    out[`${tenant}: live query, save() call to subscriber (ms)`] = median(l.fromSaveMs);
  }
  if (figures.search) out['searchProducts median (ms)'] = median(Object.values(figures.search.times).flat());
  return out;
}

/** The issue's aim for the mirror's first sync against a bare write into the same tables and indexes. */
const INDEXED_AIM = 0.95;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms1 = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(1)} ms`);
const spanOf = (xs: readonly number[], format: (x: number) => string) => {
  const { min, max } = range(xs);
  return xs.length > 1 ? ` (rounds ${format(min)}–${format(max)})` : '';
};

/** Prints one engine's figures of one run. */
export function printEngine(f: EngineFigures): void {
  const resolution = f.timerResolutionMs === undefined ? '' : ` (the page's clock ticks in ${f.timerResolutionMs < 0.1 ? `${(f.timerResolutionMs * 1000).toFixed(0)} µs` : `${f.timerResolutionMs.toFixed(1)} ms`})`;
  console.log(`\n${f.version}${resolution}`);
  for (const s of f.sync) {
    const bounded = s.bounded ? ', BOUNDED: a round hit the time limit, figures of what it did' : '';
    console.log(`  first sync, ${s.tenant} tenant (${n0(s.records)} records)${s.where ? `, ${s.where}` : ''}, ${s.rounds} interleaved round(s)${bounded}:`);
    console.log(`    mirror.syncNow()                          ${n0(median(s.mirrorRates)).padStart(7)} records/s${spanOf(s.mirrorRates, n0)}; ${median(s.mirrorSeconds).toFixed(1)} s`);
    console.log(`    baseline: fetch + JSON.parse + bulkPut    ${n0(median(s.baselineRates)).padStart(7)} records/s${spanOf(s.baselineRates, n0)}`);
    console.log(`    the same into the mirror's indexes        ${n0(median(s.indexedRates)).padStart(7)} records/s${spanOf(s.indexedRates, n0)}`);
    console.log(`    fetch + JSON.parse alone                  ${n0(median(s.transportRates)).padStart(7)} records/s`);
    console.log(`    ratio mirror / baseline: ${(median(s.mirrorRates) / median(s.baselineRates)).toFixed(2)}x${spanOf(s.ratios, (x) => `${x.toFixed(2)}x`)}`);
    const indexedRatio = median(s.mirrorRates) / median(s.indexedRates);
    console.log(
      `    ratio mirror / baseline into the mirror's indexes: ${indexedRatio.toFixed(2)}x${spanOf(s.indexedRatios, (x) => `${x.toFixed(2)}x`)} ` +
        `(aim ${INDEXED_AIM}x: ${indexedRatio >= INDEXED_AIM ? 'met' : 'not met'})`,
    );
    console.log(`    the mirror's indexes against none (indexed baseline / baseline): ${(median(s.indexedRates) / median(s.baselineRates)).toFixed(2)}x${spanOf(s.indexCostRatios, (x) => `${x.toFixed(2)}x`)}`);
    const hb = s.mirrorHeartbeats;
    console.log(
      `    longest main-thread task during the mirror's sync (median of rounds): timer heartbeat gap ${ms1(heartbeatMedian(hb, 'timerMaxGapMs'))}, ` +
        `animation-frame gap ${ms1(heartbeatMedian(hb, 'frameMaxGapMs'))}, Long Tasks API ${ms1(heartbeatMedian(hb, 'longTaskMaxMs'))}, ` +
        `long animation frame ${ms1(heartbeatMedian(hb, 'longFrameMaxMs'))}`,
    );
    console.log(`    (during the baseline: timer heartbeat gap ${ms1(heartbeatMedian(s.baselineHeartbeats, 'timerMaxGapMs'))})`);
  }
  for (const l of f.live) {
    const { max } = range(l.fromCommitMs);
    console.log(
      `  live query (itemsOfOrder) after one mirror.save of an item, ${l.tenant} tenant (${n0(l.tableRows)} order items)${l.where ? `, ${l.where}` : ''}, ${l.fromCommitMs.length} writes: ` +
        `commit to subscriber median ${ms1(median(l.fromCommitMs))} (max ${ms1(max)}); save() call to subscriber median ${ms1(median(l.fromSaveMs))}`,
    );
  }
  if (f.search) {
    const s = f.search;
    const kinds = Object.entries(s.times)
      .map(([kind, ms]) => `${kind} ${median(ms).toFixed(1)}`)
      .join(', ');
    console.log(
      `  searchProducts, ${n0(s.products)} products: median ${ms1(median(Object.values(s.times).flat()))}, mean ${ms1(mean(Object.values(s.times).flat()))} (medians by kind: ${kinds}); ` +
        `indexed name-prefix lookup ${ms1(median(s.baseline))}; catalogue stored in ${s.loadSeconds.toFixed(1)} s; ranking ${s.rankingDigest}`,
    );
  }
  if (f.profile) printProfile(f.profile);
  for (const note of f.notes) console.log(`  note: ${note}`);
}

/** Says whether the engines ranked every query alike, naming the queries that differ. */
export function compareRankings(figures: readonly EngineFigures[]): string {
  const searched = figures.filter((f): f is EngineFigures & { search: SearchFigures } => f.search !== undefined);
  if (searched.length < 2) return '';
  const [first, ...others] = searched;
  const differing: string[] = [];
  for (const other of others) {
    for (const [kind, results] of Object.entries(first!.search.results)) {
      results.forEach((ids, i) => {
        if (other.search.results[kind]?.[i] !== ids) differing.push(`${other.engine}, ${kind} #${i + 1}`);
      });
    }
  }
  const names = searched.map((f) => f.engine).join(', ');
  return differing.length === 0
    ? `searchProducts ranking: identical in ${names} (every query, every result in order)`
    : `searchProducts ranking DIFFERS from ${first!.engine}: ${differing.slice(0, 10).join('; ')}${differing.length > 10 ? ` and ${differing.length - 10} more` : ''}`;
}
