/**
 * Smoke runs of the benchmarks. `npm run bench -- --smoke` starts every benchmark with
 * `BENCH_SMOKE=1`: each then runs its smallest input, one round, with every engine and candidate
 * it normally runs, only to prove that it still finishes and prints its figures (CI runs it).
 * Its figures are not timings anyone should quote. Not a benchmark itself: `bench/run.ts` runs
 * only files named `*.bench.ts`.
 */

/** The environment variable `bench/run.ts` sets for a smoke run (`1`). */
export const SMOKE_ENV = 'BENCH_SMOKE';

/** Whether this is a smoke run: `BENCH_SMOKE=1`; `0` or unset is a normal run, anything else an error. */
export const SMOKE = readSmoke(process.env[SMOKE_ENV]);

/**
 * `smoke` in a smoke run, `normal` otherwise: a benchmark names both beside each other where it
 * sets its defaults (an environment knob such as `ROUNDS` still overrides either).
 */
export function smokeOr<T>(smoke: T, normal: T): T {
  return SMOKE ? smoke : normal;
}

/** What a benchmark appends to its header line, so that a smoke run's figures are not taken for real ones ('' in a normal run). */
export const SMOKE_NOTE = SMOKE ? ' [SMOKE RUN: smallest input, one round; do not quote these figures]' : '';

function readSmoke(text: string | undefined): boolean {
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new Error(`${SMOKE_ENV}: expected 1 or 0, got "${text}"`);
}
