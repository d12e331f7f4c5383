/**
 * A CPU profile of a piece of this process (through `node:inspector`), reduced to the share of
 * the time spent in functions a benchmark names (how much of a run one cost takes), or to the
 * self time of each category of functions. Not a benchmark itself: `bench/run.ts` runs only files
 * named `*.bench.ts`.
 */
import { Session } from 'node:inspector/promises';

/** One frame of a V8 CPU profile, as far as this file reads it. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

/** What a profiled run took, and the part of it spent in the matched functions (their own time). */
export interface ProfiledRun<T> {
  result: T;
  /** Sampled time of the run, in ms. */
  totalMs: number;
  /** Sampled time spent in functions that `match` accepts (self time, not what they call), in ms. */
  matchedMs: number;
}

/** Runs `run` under the sampling profiler and measures the self time of the functions `match` accepts. */
export async function profileShare<T>(
  run: () => Promise<T>,
  match: (frame: ProfileNode['callFrame']) => boolean,
): Promise<ProfiledRun<T>> {
  const { result, profile } = await profiled(run, 200);
  const times = selfTimeBy(profile, (frame) => (match(frame) ? 'matched' : 'other'));
  const matchedMs = times.get('matched') ?? 0;
  return { result, totalMs: matchedMs + (times.get('other') ?? 0), matchedMs };
}

/** A V8 CPU profile, as far as the benchmarks read it. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Runs `run` under the sampling profiler (a sample every `intervalUs` microseconds) and returns its result and the profile. */
export async function profiled<T>(run: () => Promise<T>, intervalUs = 500): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await session.post('Profiler.start');
    const result = await run();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile: profile as CpuProfile };
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}

/** The sampled self time of `profile` (ms) by the category `categoryOf` gives each function. */
export function selfTimeBy(profile: CpuProfile, categoryOf: (frame: ProfileNode['callFrame']) => string): Map<string, number> {
  const categories = new Map(profile.nodes.map((n) => [n.id, categoryOf(n.callFrame)]));
  const out = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const category = categories.get(samples[i]!) ?? 'other';
    out.set(category, (out.get(category) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return out;
}
