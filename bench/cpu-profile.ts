/**
 * A CPU profile of a piece of this process (through `node:inspector`), reduced to the share of
 * the time spent in functions a benchmark names: how much of a run one cost takes. Not a benchmark
 * itself: `bench/run.ts` runs only files named `*.bench.ts`.
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
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const result = await run();
    const { profile } = await session.post('Profiler.stop');
    const matched = new Set((profile.nodes as ProfileNode[]).filter((n) => match(n.callFrame)).map((n) => n.id));
    const deltas = profile.timeDeltas ?? [];
    const samples = profile.samples ?? [];
    let total = 0;
    let inMatched = 0;
    for (let i = 0; i < samples.length; i++) {
      const dt = deltas[i] ?? 0;
      total += dt;
      if (matched.has(samples[i]!)) inMatched += dt;
    }
    return { result, totalMs: total / 1000, matchedMs: inMatched / 1000 };
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}
