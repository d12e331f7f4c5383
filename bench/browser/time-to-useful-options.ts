/**
 * What the time-to-useful benchmark measures, from the environment. Not a benchmark itself:
 * `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { selectedEngines, type EngineName } from '../../scripts/engines/index.js';
import { smokeOr } from '../smoke.js';
import { count } from './options.js';

/** The simulator's presets a new tablet syncs from. */
export type UsefulTenant = 'tiny' | 'small' | 'medium' | 'large';

/** The time-to-useful benchmark's options. */
export interface TimeToUsefulOptions {
  /** `ENGINES=chromium,webkit`. @default all three */
  engines: EngineName[];
  /** `TENANTS=medium`. @default ['medium', 'large'] (['small'] in a smoke run) */
  tenants: UsefulTenant[];
  /** `ROUNDS`: new tablets per tenant and engine, the engines' order turning each round. @default 3 (1 in a smoke run) */
  rounds: number;
  /** `ROUND_LIMIT_S`: a round's sync is stopped after this many seconds. @default 1800 */
  roundLimitMs: number;
  /** `POLL_MS`: how often the page reads the mirror's database while it waits. @default 50 */
  pollMs: number;
  /** `BENCH_RESULTS=dir`: where the run's figures are written as JSON. @default test-output/bench-browser */
  resultsDir: string;
}

const TENANTS: readonly UsefulTenant[] = ['tiny', 'small', 'medium', 'large'];

/** Reads the options; an unknown tenant or a bad number is an error that names it. */
export function timeToUsefulOptions(env: NodeJS.ProcessEnv = process.env): TimeToUsefulOptions {
  const tenants = (env.TENANTS || smokeOr('small', 'medium,large')).split(',').map((t) => t.trim()).filter(Boolean);
  const unknown = tenants.filter((t) => !(TENANTS as readonly string[]).includes(t));
  if (unknown.length > 0 || tenants.length === 0) throw new Error(`TENANTS: expected some of ${TENANTS.join(', ')}, got "${env.TENANTS}"`);
  return {
    engines: selectedEngines(env.ENGINES),
    tenants: tenants as UsefulTenant[],
    rounds: count(env, 'ROUNDS', smokeOr(1, 3), 1),
    roundLimitMs: count(env, 'ROUND_LIMIT_S', 1800, 1) * 1000,
    pollMs: count(env, 'POLL_MS', 50, 1),
    resultsDir: env.BENCH_RESULTS || 'test-output/bench-browser',
  };
}
