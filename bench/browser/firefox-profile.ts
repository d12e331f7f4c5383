/**
 * Firefox's CPU profile. WebDriver BiDi, which drives Firefox here, has no profiler; the Gecko
 * profiler built into Firefox is started with the browser instead (its `MOZ_PROFILER_STARTUP`
 * variables) and writes the whole session's profile when the browser quits. The part of it that
 * counts is cut out by the page's user-timing marks around the sync (`SYNC_MARKS`), on the main
 * thread of the content process that ran the page, and turned into the samples
 * `profile-summary.ts` reads. Each sample stands for the CPU time the thread used since the one
 * before (not the wall time: on a busy machine the thread also waits for a core).
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { readFile } from 'node:fs/promises';
import { SYNC_MARKS } from './in-page/mirror-sync.js';
import { isBundle, type Frame, type Sample } from './profile-summary.js';

/** The environment that makes Firefox profile its main threads from start and write the profile to `file` on quitting. */
export function geckoProfilerEnv(file: string): Record<string, string> {
  return {
    MOZ_PROFILER_STARTUP: '1',
    MOZ_PROFILER_SHUTDOWN: file,
    // JS frames and CPU use per sample; no native stack walking (this Firefox has no symbols here),
    // and no stacks captured for markers (the profiler's own cost, which would show in the profile).
    MOZ_PROFILER_STARTUP_FEATURES: 'js,cpu,nomarkerstacks',
    MOZ_PROFILER_STARTUP_FILTERS: 'GeckoMain',
    MOZ_PROFILER_STARTUP_INTERVAL: '1',
    // 8-byte entries: a buffer of 256 MB, so the sync's samples are not overwritten by the ring.
    MOZ_PROFILER_STARTUP_ENTRIES: String(32 * 1024 * 1024),
  };
}

/** The parts of a Gecko profile (raw, as Firefox writes it) this file reads. */
interface GeckoTable {
  schema: Record<string, number>;
  data: unknown[][];
}
interface GeckoThread {
  name: string;
  processName?: string;
  samples: GeckoTable;
  stackTable: GeckoTable;
  frameTable: GeckoTable;
  markers: GeckoTable;
  stringTable: string[];
}
interface GeckoProfile {
  meta: { categories: { name: string }[]; interval: number; sampleUnits?: { threadCPUDelta?: string } };
  threads: GeckoThread[];
  processes: GeckoProfile[];
}

/** Reads the profile written to `file` and returns the samples of the last sync the page marked, and the wall time it took (ms). */
export async function firefoxSamples(file: string, moduleAt: (line: number) => string | undefined): Promise<{ samples: Sample[]; wallMs: number }> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as GeckoProfile;
  const threads = allThreads(profile);
  for (const thread of threads) {
    const window = markedWindow(thread);
    if (window) return { samples: samplesIn(thread, window, profile.meta, moduleAt), wallMs: window.end - window.start };
  }
  throw new Error(`firefox profile ${file}: no thread holds the marks ${SYNC_MARKS.start} and ${SYNC_MARKS.end}`);
}

function allThreads(profile: GeckoProfile): GeckoThread[] {
  return [...profile.threads, ...(profile.processes ?? []).flatMap(allThreads)];
}

/** The times of the last start and end marks on the thread. */
function markedWindow(thread: GeckoThread): { start: number; end: number } | undefined {
  const { schema, data } = thread.markers;
  let start: number | undefined;
  let end: number | undefined;
  for (const row of data) {
    const payload = row[schema.data!] as { type?: string; name?: string } | null;
    if (payload?.type !== 'UserTiming') continue;
    const at = row[schema.startTime!] as number;
    if (payload.name === SYNC_MARKS.start) start = at;
    if (payload.name === SYNC_MARKS.end) end = at;
  }
  return start !== undefined && end !== undefined && end > start ? { start, end } : undefined;
}

function samplesIn(thread: GeckoThread, window: { start: number; end: number }, meta: GeckoProfile['meta'], moduleAt: (line: number) => string | undefined): Sample[] {
  const strings = thread.stringTable;
  const st = thread.stackTable;
  const ft = thread.frameTable;
  const frameOf = (index: number): { frame: Frame; category: string | undefined } => {
    const row = ft.data[index]!;
    const location = strings[row[ft.schema.location!] as number] ?? '?';
    const categoryIndex = row[ft.schema.category!] as number | null;
    const category = categoryIndex === null || categoryIndex === undefined ? undefined : meta.categories[categoryIndex]?.name;
    return { frame: parseLocation(location, moduleAt), category };
  };
  const stacks = new Map<number, { frames: Frame[]; category: string | undefined }>();
  const stackOf = (index: number) => {
    const known = stacks.get(index);
    if (known) return known;
    const frames: Frame[] = [];
    let category: string | undefined;
    for (let at: number | null = index; at !== null && at !== undefined; at = st.data[at]![st.schema.prefix!] as number | null) {
      const { frame, category: c } = frameOf(st.data[at]![st.schema.frame!] as number);
      // A bare code address (the sampled leaf, unsymbolicated here) says nothing: the frame above it does.
      if (!/^0x[0-9a-f]+$/i.test(frame.name)) frames.push(frame);
      // A sample's category is its leaf-most frame's that has one, as the profiler's own viewer reads it.
      category ??= c;
    }
    const stack = { frames, category };
    stacks.set(index, stack);
    return stack;
  };
  const rows = thread.samples.data;
  const timeAt = thread.samples.schema.time!;
  const stackAt = thread.samples.schema.stack!;
  const cpuAt = thread.samples.schema.threadCPUDelta;
  const cpuUnit = { ns: 1e-6, 'µs': 1e-3, ms: 1 }[meta.sampleUnits?.threadCPUDelta ?? ''];
  const out: Sample[] = [];
  for (let i = 0; i < rows.length; i++) {
    const time = rows[i]![timeAt] as number;
    if (time < window.start || time > window.end) continue;
    const cpu = cpuAt === undefined ? undefined : (rows[i]![cpuAt] as number | null);
    const next = rows[i + 1]?.[timeAt] as number | undefined;
    const ms =
      cpu !== undefined && cpu !== null && cpuUnit !== undefined
        ? cpu * cpuUnit
        : Math.min(next === undefined ? meta.interval : next - time, window.end - time);
    const stackIndex = rows[i]![stackAt] as number | null;
    if (stackIndex === null) {
      out.push({ frames: [], ms, category: 'Idle' });
      continue;
    }
    const { frames, category } = stackOf(stackIndex);
    out.push({ frames, ms, ...(category ? { category } : {}) });
  }
  return out;
}

/** A frame from its location: `name (url:line:column)` for script, else a label such as `IDBObjectStore.put`. */
function parseLocation(location: string, moduleAt: (line: number) => string | undefined): Frame {
  const script = /^(?:(.*) \()?(.*):(\d+):(\d+)\)?(?:\[\d+\])?$/.exec(location);
  if (!script || !/^(https?|data|self-hosted|file)/.test(script[2] ?? '')) return { name: location };
  const module = isBundle(script[2]!) ? moduleAt(Number(script[3])) : undefined;
  return { name: script[1] || '(anonymous)', ...(module ? { module } : {}) };
}
