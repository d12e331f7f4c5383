/**
 * WebKit's CPU profile: JavaScriptCore's sampling profiler (the Web Inspector protocol's
 * `ScriptProfiler`, in a MiniBrowser driven through its inspector, `scripts/engines/webkit-inspector.ts`), turned
 * into the samples `profile-summary.ts` reads. JavaScriptCore samples the page's thread only while
 * it runs script (host functions such as IndexedDB's `put` and garbage collection inside it
 * included), and gives its samples no time here: each counts as one.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { isBundle, type Sample } from './profile-summary.js';

/** What `ScriptProfiler.trackingComplete` carries, as far as this file reads it. */
export interface ScriptProfilerSamples {
  samples?: { stackTraces: { stackFrames: { name: string; url: string; line: number }[] }[] };
}

/** The samples (leaf frame first), one unit each. */
export function webkitSamples(profile: ScriptProfilerSamples, moduleAt: (line: number) => string | undefined): Sample[] {
  return (profile.samples?.stackTraces ?? []).map((trace) => ({
    ms: 1,
    frames: trace.stackFrames.map(({ name, url, line }) => {
      const module = isBundle(url) ? moduleAt(line) : undefined;
      return { name: name || '(anonymous)', ...(module ? { module } : {}) };
    }),
  }));
}
