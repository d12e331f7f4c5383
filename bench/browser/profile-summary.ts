/**
 * A CPU profile of the mirror's first sync in a page, reduced to what the speed work starts from:
 * the functions with the most self time, and the share of each area of the work (parsing,
 * validation, IndexedDB through Dexie, live queries and status, the client, GC, idle). Reads
 * Chromium's profiles (CDP `Profiler`) and Firefox's (the Gecko profiler's JSON), both turned into
 * the same samples first; the page's code is the unminified bundle, whose line numbers say which
 * module a function is from.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { PROFILE_SCRIPT } from './bench-page.js';

/** What a sample's time is (see {@link ProfileSummary.basis}). */
export type ProfileBasis = 'wall' | 'cpu' | 'samples';

/** One frame of a sampled stack. */
export interface Frame {
  /** A function's name, a native function's, or a label (`(garbage collector)`, `IDBObjectStore.put`). */
  name: string;
  /** The module of the page's bundle the function is in, when it is one of the page's. */
  module?: string;
}

/** One sample: its stack (leaf first), how long it stands for, and the engine's own category. */
export interface Sample {
  frames: Frame[];
  ms: number;
  /** Chromium: `idle`, `gc`, `program` for its special nodes; Firefox: the leaf's category (`GC / CC`, `Idle`...). */
  category?: string;
}

/** What a profile comes to. */
export interface ProfileSummary {
  engine: string;
  /** Where the full profile was written. */
  file: string;
  /** Wall time the profile covers (ms), and the time of the samples that were not idle. */
  totalMs: number;
  busyMs: number;
  /**
   * What a sample's time is: `wall` (Chromium: the time to the next sample, so a thread waiting for
   * a core on a busy machine counts as running), `cpu` (Firefox: the CPU the thread used) or
   * `samples` (WebKit: each sample of running script counts one; "ms" below are sample counts).
   */
  basis: ProfileBasis;
  /** Functions with the most self time, as `name (module)`, with their ms and share of the busy time. */
  top: { item: string; ms: number; share: number }[];
  /** Areas of the work, their ms and share of the busy time. */
  areas: { area: string; ms: number; share: number }[];
  /**
   * The longest stretch of samples with no idle one between them (a long task, or tasks back to
   * back), and the functions with the most self time in it.
   */
  longestBusy: { ms: number; top: { item: string; ms: number; share: number }[] };
}

/** The modules of the unminified bundle, by first line: each starts with a comment naming its file. */
export function bundleModules(path: string): (line: number) => string | undefined {
  const starts: { line: number; module: string }[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const found = /^\t\/\/ ((?:src|bench|node_modules)\/\S+\.[cm]?[jt]sx?)$/.exec(text);
      if (found) starts.push({ line: i + 1, module: found[1]! });
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found: string | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** Whether `url` is the page's unminified bundle. */
export function isBundle(url: string): boolean {
  return url.endsWith(`/${PROFILE_SCRIPT}`);
}

/** Dexie's own functions that keep live queries current (the rest of Dexie reads and writes). */
const DEXIE_LIVE = /liveQuery|observab|RangeSet|rangesOverlap|signalSubscribers|obsSet|extendObservabilitySet|getObservabilitySet|subscr/i;

/** The area a sample's time belongs to: GC and idle by the engine's say, else the nearest module of the page's code. */
export function areaOf(sample: Sample): string {
  const category = sample.category ?? '';
  if (category === 'gc' || category === 'GC / CC') return 'GC';
  if (category === 'idle' || category === 'Idle') return 'idle';
  const leaf = sample.frames[0]?.name ?? '';
  // Firefox driven over WebDriver BiDi makes the page a debuggee, which records an async stack for
  // every callback handed to the engine (a cost a person's Firefox does not pay).
  if (leaf.includes('SavedStacks::saveCurrentStack')) return 'async stacks recorded for the automation (Firefox)';
  if (leaf.startsWith('profiler_')) return 'the profiler itself';
  const frame = sample.frames.find((f) => f.module !== undefined);
  if (!frame) return category === 'program' ? 'engine (outside any script)' : 'engine and browser APIs outside the page code';
  const m = frame.module!;
  if (m.startsWith('src/json/')) return 'parse (src/json)';
  if (m.startsWith('src/schema/') || m.includes('node_modules/zod/')) return 'validation (src/schema, zod)';
  if (m.includes('node_modules/dexie/')) return DEXIE_LIVE.test(frame.name) ? 'live queries (Dexie liveQuery bookkeeping)' : 'IndexedDB reads and writes (Dexie and the engine under it)';
  if (/^src\/mirror\/(status|run-status|observable-value|phases|sync-report)/.test(m)) return 'status and progress (src/mirror)';
  if (m.startsWith('src/db/')) return 'database layer: search words, rows (src/db)';
  if (m.startsWith('src/sync/pull/')) return 'pull: traversal, apply, checkpoints (src/sync/pull)';
  if (m.startsWith('src/sync/')) return 'sync engine, other (src/sync)';
  if (m.startsWith('src/client/') || m.includes('node_modules/ky/')) return 'client: requests and pages (src/client, ky)';
  if (m.startsWith('src/mirror/')) return 'mirror facade and runs (src/mirror)';
  if (m.startsWith('bench/')) return 'the bench page itself (heartbeat, jobs)';
  return `other: ${m}`;
}

/** The name a sample's self time is listed under: its leaf function and module. */
function itemOf(sample: Sample): string {
  const leaf = sample.frames[0];
  return leaf ? `${leaf.name}${leaf.module ? ` (${leaf.module})` : ''}` : `(${sample.category ?? 'unknown'})`;
}

/** Entries of `map`, largest first, with their share of `whole`. */
function ranked(map: Map<string, number>, whole: number): { name: string; ms: number; share: number }[] {
  return [...map].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ name, ms, share: ms / whole }));
}

/** The longest run of samples none of which is idle, with its top self-time items. */
function longestBusy(samples: readonly Sample[], top: number): ProfileSummary['longestBusy'] {
  let best: { from: number; to: number; ms: number } = { from: 0, to: 0, ms: 0 };
  let from = 0;
  let ms = 0;
  samples.forEach((sample, i) => {
    if (areaOf(sample) === 'idle') {
      from = i + 1;
      ms = 0;
      return;
    }
    ms += sample.ms;
    if (ms > best.ms) best = { from, to: i + 1, ms };
  });
  const items = new Map<string, number>();
  for (const sample of samples.slice(best.from, best.to)) items.set(itemOf(sample), (items.get(itemOf(sample)) ?? 0) + sample.ms);
  return { ms: best.ms, top: ranked(items, best.ms).slice(0, top).map(({ name, ms, share }) => ({ item: name, ms, share })) };
}

/** Top items and areas of `samples`; `wallMs` is the time they cover (the sum of their times when not given). */
export function summarize(engine: string, file: string, samples: readonly Sample[], basis: ProfileBasis, wallMs?: number, top = 15): ProfileSummary {
  let totalMs = 0;
  let busyMs = 0;
  const items = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const sample of samples) {
    totalMs += sample.ms;
    const area = areaOf(sample);
    if (area === 'idle') continue;
    busyMs += sample.ms;
    areas.set(area, (areas.get(area) ?? 0) + sample.ms);
    items.set(itemOf(sample), (items.get(itemOf(sample)) ?? 0) + sample.ms);
  }
  return {
    engine,
    file,
    totalMs: wallMs ?? totalMs,
    busyMs,
    basis,
    top: ranked(items, busyMs).slice(0, top).map(({ name, ms, share }) => ({ item: name, ms, share })),
    areas: ranked(areas, busyMs).map(({ name, ms, share }) => ({ area: name, ms, share })),
    longestBusy: longestBusy(samples, 5),
  };
}

/** Prints a summary. */
export function printProfile(summary: ProfileSummary): void {
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)}%`;
  const unit = summary.basis === 'samples' ? 'samples' : 'ms';
  const busy = {
    wall: `busy ${(summary.busyMs / 1000).toFixed(2)} s (wall time of the samples not idle)`,
    cpu: `busy ${(summary.busyMs / 1000).toFixed(2)} s (CPU time of the page's main thread)`,
    samples: `${summary.busyMs} samples of running script`,
  }[summary.basis];
  console.log(`  profile of the small tenant's first sync: ${summary.file}`);
  console.log(`    ${(summary.totalMs / 1000).toFixed(2)} s, ${busy}; shares are of the busy time`);
  console.log('    areas:');
  for (const a of summary.areas) console.log(`      ${pct(a.share)}  ${a.ms.toFixed(0).padStart(6)} ${unit}  ${a.area}`);
  console.log('    top self time:');
  for (const t of summary.top) console.log(`      ${pct(t.share)}  ${t.ms.toFixed(0).padStart(6)} ${unit}  ${t.item}`);
  if (summary.basis === 'samples') return;
  const long = summary.longestBusy;
  console.log(`    longest stretch with no idle sample: ${long.ms.toFixed(0)} ms; in it:`);
  for (const t of long.top) console.log(`      ${pct(t.share)}  ${t.ms.toFixed(0).padStart(6)} ${unit}  ${t.item}`);
}
