/**
 * Chromium's CPU profile (CDP `Profiler`, taken through the tab's DevTools session) turned into the
 * samples `profile-summary.ts` reads. Not a benchmark itself: `bench/run.ts` runs only files named
 * `*.bench.ts`.
 */
import type { EngineTab } from '../../scripts/engines/index.js';
import { isBundle, type Frame, type Sample } from './profile-summary.js';

/** A V8 CPU profile, as far as this file reads it (the `.cpuprofile` DevTools opens). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** How often the profiler samples (µs). */
const INTERVAL_US = 1000;

/** Profiles `run` in `tab` and resolves with its result and the profile. */
export async function profileChromium<T>(tab: EngineTab, run: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const cdp = tab.cdp;
  if (!cdp) throw new Error(`${tab.engine}: this tab has no DevTools session to profile with`);
  await cdp('Profiler.enable');
  await cdp('Profiler.setSamplingInterval', { interval: INTERVAL_US });
  await cdp('Profiler.start');
  try {
    const result = await run();
    const { profile } = (await cdp('Profiler.stop')) as { profile: CpuProfile };
    return { result, profile };
  } finally {
    await cdp('Profiler.disable').catch(() => undefined);
  }
}

/** The profile's samples, each with its stack (leaf first) and the time until the next sample. */
export function chromiumSamples(profile: CpuProfile, moduleAt: (line: number) => string | undefined): Sample[] {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<number, Frame[]>();
  const stackOf = (id: number): Frame[] => {
    const known = stacks.get(id);
    if (known) return known;
    const frames: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (functionName === '(root)') break;
      const module = isBundle(url) ? moduleAt(lineNumber + 1) : undefined;
      frames.push({ name: functionName || '(anonymous)', ...(module ? { module } : {}) });
    }
    stacks.set(id, frames);
    return frames;
  };
  const special: Record<string, string> = { '(garbage collector)': 'gc', '(idle)': 'idle', '(program)': 'program' };
  return profile.samples.map((id, i) => {
    const frames = stackOf(id);
    // A sample stands for the time until the next one (the last for one interval).
    const ms = (profile.timeDeltas[i + 1] ?? INTERVAL_US) / 1000;
    const category = special[frames[0]?.name ?? ''];
    return { frames, ms, ...(category ? { category } : {}) };
  });
}
