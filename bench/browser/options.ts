/**
 * What the browser benchmark measures, from the environment. Not a benchmark itself: `bench/run.ts`
 * runs only files named `*.bench.ts`.
 */
import { selectedEngines, type EngineName } from '../../scripts/engines/index.js';
import { smokeOr } from '../smoke.js';

/** The simulator's tenant presets the first sync is measured on. */
export type TenantName = 'tiny' | 'small' | 'medium';

/** The simulator's presets the `LARGE=1` rounds can run on. */
export type LargeSize = TenantName | 'large';

/** The browser benchmark's options. */
export interface BrowserBenchOptions {
  /** `ENGINES=chromium,webkit`. @default all three */
  engines: EngineName[];
  /** `TENANTS=small`. @default ['small', 'medium'] (['small'] in a smoke run) */
  tenants: TenantName[];
  /** `ROUNDS`: interleaved rounds per tenant. @default 3 (1 in a smoke run) */
  rounds: number;
  /** `ROUND_LIMIT_S`: a round stops after this many seconds. @default 600 */
  roundLimitMs: number;
  /** `SEARCH_PRODUCTS`: the catalogue's size; 0 leaves search out. @default 100000 (2000 in a smoke run) */
  searchProducts: number;
  /** `LIVE_WRITES`: writes timed for the live query. @default 40 (3 in a smoke run) */
  liveWrites: number;
  /** `PROFILE=dir`: write a CPU profile of the small tenant's first sync per engine there. */
  profileDir: string | undefined;
  /**
   * `LARGE=1`: the ~1M-record tenant's first sync instead (see `large-sync.ts`); the other tenants
   * and search then run only when named (`TENANTS`, `SEARCH_PRODUCTS`), rounds default to 1 and
   * the round limit to 1,800 s.
   */
  large: boolean;
  /**
   * `LARGE_SIZE=medium`: the simulator's preset the `LARGE=1` rounds run on, to try that path
   * without the hour a million records take (only with `LARGE=1`).
   * @default 'large'
   */
  largeSize: LargeSize;
  /**
   * `FRESH=1`: each first-sync candidate of each round in a browser of its own, on a fresh profile
   * (no live-query figure then: the synced database goes with its browser).
   */
  fresh: boolean;
  /** `BENCH_RESULTS=dir`: where the run's figures are written as JSON. @default test-output/bench-browser */
  resultsDir: string;
}

const TENANTS: readonly TenantName[] = ['tiny', 'small', 'medium'];
const LARGE_SIZES: readonly LargeSize[] = [...TENANTS, 'large'];

/** Reads the options; an unknown tenant or preset, or a bad number, is an error that names it. */
export function browserBenchOptions(env: NodeJS.ProcessEnv = process.env): BrowserBenchOptions {
  const large = env.LARGE === '1';
  const tenants = (env.TENANTS ?? (large ? '' : smokeOr('small', 'small,medium'))).split(',').map((t) => t.trim()).filter(Boolean);
  const unknown = tenants.filter((t) => !(TENANTS as readonly string[]).includes(t));
  if (unknown.length > 0 || (tenants.length === 0 && !large)) throw new Error(`TENANTS: expected some of ${TENANTS.join(', ')}, got "${env.TENANTS}"`);
  const largeSize = env.LARGE_SIZE || 'large';
  if (!(LARGE_SIZES as readonly string[]).includes(largeSize)) throw new Error(`LARGE_SIZE: expected one of ${LARGE_SIZES.join(', ')}, got "${env.LARGE_SIZE}"`);
  // A preset asked for without LARGE=1 would be silently ignored, and the figures taken for its own.
  if (env.LARGE_SIZE && !large) throw new Error(`LARGE_SIZE: applies to the LARGE=1 rounds only, got "${env.LARGE_SIZE}" without LARGE=1`);
  return {
    engines: selectedEngines(env.ENGINES),
    tenants: tenants as TenantName[],
    rounds: count(env, 'ROUNDS', large ? 1 : smokeOr(1, 3), 1),
    roundLimitMs: count(env, 'ROUND_LIMIT_S', large ? 1800 : 600, 1) * 1000,
    searchProducts: count(env, 'SEARCH_PRODUCTS', large ? 0 : smokeOr(2_000, 100_000), 0),
    liveWrites: count(env, 'LIVE_WRITES', smokeOr(3, 40), 1),
    profileDir: env.PROFILE || undefined,
    large,
    largeSize: largeSize as LargeSize,
    fresh: flag(env, 'FRESH'),
    resultsDir: env.BENCH_RESULTS || 'test-output/bench-browser',
  };
}

/** A yes-or-no option: `1` or `0` (or unset); any other value is an error that names it. */
export function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const text = env[name];
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new Error(`${name}: expected 1 or 0, got "${text}"`);
}

/** A whole-number option of at least `min`, `fallback` when unset; any other value is an error that names it. */
export function count(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name}: expected a whole number >= ${min}, got "${text}"`);
  return value;
}
