/**
 * The series a day at the register (`--day`) records, and what it says: per tab, each measure's
 * first reading, its reading after the first sync, its least, its most and its last, the heap's
 * growth from after the first sync to the end with a straight line's slope, and a verdict
 * against the aims:
 *
 * - **heap flat**: after the first sync, a tab's JS heap grows no more than noise; growth counts
 *   when both the last reading and the fitted line rise beyond {@link heapTolerance}, so one
 *   reading caught before a collection does not make a leak;
 * - **bytes per record steady**: the database grows with the data, so its size over its records
 *   at the end is at most {@link BYTES_PER_RECORD_RATIO} times what it was after the first sync;
 * - **sync tables empty**: once the run settled, no outbox entry, rejected push, conflict or
 *   quarantined record is left.
 *
 * The browser's page processes are read as well, once a round for all the tabs (the tabs of one
 * origin share processes, so no reading is one tab's): the memory each holds (`memoryOf`). It
 * holds more than the JS heap (the engine's own caches, its DOM, code), and it is the reading
 * Firefox and WebKit give. The series follows the processes that ran from the first sync to the
 * end, the ones serving the tabs all along: a process the engine starts later (a spare one kept
 * ready for the next tab) or ends would read as a step of tens of MB that no page made. **Page
 * memory flat** judges their sum as the heap is judged, where no heap is read (see `judgePages`).
 *
 * An aim the engine gives no reading for (no heap in Firefox or WebKit under WebDriver, no
 * storage estimate) is neither met nor missed: `n/a`.
 */

/** When a sample was taken: before the first sync, right after it, during the run, after settling. */
export type DayPhase = 'start' | 'first-sync' | 'run' | 'end';

/** One tab's readings at one moment. */
export interface DaySample {
  /** Since the run started (ms). */
  atMs: number;
  /** The tab's slot. */
  tab: number;
  phase: DayPhase;
  /** The tab's JS heap (bytes); null where the engine gives no reading. */
  heap: number | null;
  /** What the page holds beside its JS heap, where the engine tells (Chromium); kept in the series' file, not judged. */
  beside?: HeapBeside;
  /** `navigator.storage.estimate().usage` (the origin's bytes); null where the engine gives none. */
  usage: number | null;
  /** Rows per table of the mirror's database, its sync tables included. */
  tables: Record<string, number>;
  /** Rows in every table. */
  records: number;
  /** `status.pendingPushes`, `rejected`, `conflicts`, `quarantined`. */
  outbox: number;
  rejected: number;
  conflicts: number;
  quarantined: number;
}

/**
 * What a page holds beside its JS heap, as Chromium reports it (CDP `Runtime.getHeapUsage`,
 * `Memory.getDOMCounters`): Blink's own heap (bytes), ArrayBuffers' backing stores (bytes), DOM
 * nodes and event listeners. Null where a reading is missing.
 */
export interface HeapBeside {
  embedderHeap: number | null;
  backingStores: number | null;
  domNodes: number | null;
  listeners: number | null;
}

/** The browser's page processes at one moment, all tabs together. */
export interface PagesSample {
  /** Since the run started (ms). */
  atMs: number;
  phase: DayPhase;
  /** The memory each page process held (bytes, `memoryOf`), by process id. */
  processes: Record<number, number>;
}

/** What the page processes' series says. */
export interface PagesSeries {
  samples: number;
  /** Minutes from the reading after the first sync to the last. */
  minutes: number;
  bytes: SeriesStats;
  /** Last reading less the one after the first sync (bytes). */
  growth: number;
  /** The least-squares line's slope through the readings from the first sync on, per 10 minutes (bytes). */
  slopePer10Min: number;
  /** How many processes the series follows (those that ran from the first sync to the end). */
  followed: number;
  /** Fewest and most page processes running at a reading, followed or not. */
  processes: { min: number; max: number };
}

/** A measure's readings over a tab's series; null where there was none. */
export interface SeriesStats {
  first: number;
  afterFirstSync: number;
  min: number;
  max: number;
  last: number;
}

/** What a tab's series says. */
export interface TabSeries {
  tab: number;
  samples: number;
  /** Minutes from the sample after the first sync to the last. */
  minutes: number;
  heap: SeriesStats | null;
  /** Last heap reading less the one after the first sync (bytes). */
  heapGrowth: number | null;
  /** The least-squares line's slope through the heap readings from the first sync on, per 10 minutes (bytes). */
  heapSlopePer10Min: number | null;
  usage: SeriesStats | null;
  records: SeriesStats;
  bytesPerRecord: { afterFirstSync: number; last: number } | null;
  outbox: SeriesStats;
  rejected: SeriesStats;
  conflicts: SeriesStats;
  quarantined: SeriesStats;
}

/** One aim for one tab (or for the page processes of every tab, `tab: null`): met, missed (`false`), or not measurable here (`null`). */
export interface DayAim {
  aim: 'heap flat' | 'bytes per record steady' | 'sync tables empty' | 'page memory flat';
  tab: number | null;
  met: boolean | null;
  detail: string;
}

/** The series of a run, summed up. */
export interface DaySummary {
  tabs: TabSeries[];
  /** The page processes' series; null where none was read. */
  pages: PagesSeries | null;
  aims: DayAim[];
  /** The aims missed (`met === false`). */
  missed: number;
}

/** Heap growth below this is noise whatever the heap's size (bytes). */
export const HEAP_NOISE_BYTES = 4 * 1024 * 1024;
/** Heap growth below this share of the heap after the first sync is noise. */
export const HEAP_NOISE_SHARE = 0.1;
/** Bytes per record at the end may be at most this many times those after the first sync. */
export const BYTES_PER_RECORD_RATIO = 1.5;

/** How much a heap may grow after the first sync and still be flat (bytes). */
export function heapTolerance(afterFirstSync: number): number {
  return Math.max(HEAP_NOISE_BYTES, HEAP_NOISE_SHARE * afterFirstSync);
}

/** Sums up every tab's series and the page processes' series, and judges the aims (see the file's comment). */
export function summarizeDay(samples: readonly DaySample[], pageSamples: readonly PagesSample[] = []): DaySummary {
  const slots = [...new Set(samples.map((s) => s.tab))].sort((a, b) => a - b);
  const tabs = slots.map((slot) => tabSeries(slot, samples.filter((s) => s.tab === slot).sort((a, b) => a.atMs - b.atMs)));
  const pages = pagesSeries([...pageSamples].sort((a, b) => a.atMs - b.atMs));
  const aims = [...tabs.flatMap(judge), ...(pages ? [judgePages(pages, tabs.some((t) => t.heap !== null))] : [])];
  return { tabs, pages, aims, missed: aims.filter((a) => a.met === false).length };
}

/**
 * The page processes' memory is judged where the engine gives no heap reading (Firefox, WebKit).
 * Where it gives one (Chromium) the heap is judged instead: the page process of a tab driven
 * through CDP also keeps the body of every response its page fetched for DevTools (the Network
 * domain the automation enables), about as many bytes as came in, which no page made.
 */
function judgePages(pages: PagesSeries, heapRead: boolean): DayAim {
  if (!heapRead) return flatness('page memory flat', null, pages.bytes, pages.growth, pages.slopePer10Min, pages.minutes);
  return { aim: 'page memory flat', tab: null, met: null, detail: "n/a where the JS heap is read: the automation's CDP session keeps every fetched response body in the page process (the heap is judged instead)" };
}

function pagesSeries(series: readonly PagesSample[]): PagesSeries | null {
  if (series.length === 0) return null;
  const from = Math.max(0, series.findIndex((s) => s.phase !== 'start'));
  const settled = series.slice(from);
  const last = settled[settled.length - 1]!.processes;
  const followed = Object.keys(settled[0]!.processes).filter((pid) => pid in last);
  const sum = (s: PagesSample) => followed.reduce((total, pid) => total + (s.processes[Number(pid)] ?? 0), 0);
  const bytes = stats(series, sum, from)!;
  const counts = series.map((s) => Object.keys(s.processes).length);
  return {
    samples: series.length,
    minutes: (settled[settled.length - 1]!.atMs - settled[0]!.atMs) / 60_000,
    bytes,
    growth: bytes.last - bytes.afterFirstSync,
    slopePer10Min: settled.length >= 2 ? leastSquaresSlope(settled.map((s) => [s.atMs, sum(s)] as const)) * 600_000 : 0,
    followed: followed.length,
    processes: { min: Math.min(...counts), max: Math.max(...counts) },
  };
}

/**
 * Whether a memory reading stayed flat after the first sync: it grew when both its last reading
 * and its fitted line rose beyond {@link heapTolerance}.
 */
function flatness(aim: 'heap flat' | 'page memory flat', tab: number | null, reading: SeriesStats, growth: number, slopePer10Min: number, minutes: number): DayAim {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const tolerance = heapTolerance(reading.afterFirstSync);
  const fittedRise = (slopePer10Min * minutes) / 10;
  const grew = growth > tolerance && fittedRise > tolerance;
  return {
    aim,
    tab,
    met: !grew,
    detail: `${mb(reading.afterFirstSync)} after the first sync, ${mb(reading.last)} at the end (${growth >= 0 ? '+' : ''}${mb(growth)}; line ${slopePer10Min >= 0 ? '+' : ''}${mb(slopePer10Min)} per 10 min); noise up to ${mb(tolerance)}`,
  };
}

function tabSeries(tab: number, series: readonly DaySample[]): TabSeries {
  // A tab opened after the first sync starts there: its first reading stands for it.
  const from = Math.max(0, series.findIndex((s) => s.phase !== 'start'));
  const settled = series.slice(from);
  const heapPoints = settled.filter((s) => s.heap !== null).map((s) => [s.atMs, s.heap!] as const);
  const heap = stats(series, (s) => s.heap, from);
  const usage = stats(series, (s) => s.usage, from);
  const records = stats(series, (s) => s.records, from)!;
  const bpr = (s: DaySample | undefined) => (s && s.usage !== null && s.records > 0 ? s.usage / s.records : null);
  const bprFirst = bpr(series[from]);
  const bprLast = bpr(series[series.length - 1]);
  const slope = heapPoints.length >= 2 ? leastSquaresSlope(heapPoints) : null;
  return {
    tab,
    samples: series.length,
    minutes: settled.length === 0 ? 0 : (settled[settled.length - 1]!.atMs - settled[0]!.atMs) / 60_000,
    heap,
    heapGrowth: heap ? heap.last - heap.afterFirstSync : null,
    heapSlopePer10Min: slope === null ? null : slope * 600_000,
    usage,
    records,
    bytesPerRecord: bprFirst !== null && bprLast !== null ? { afterFirstSync: bprFirst, last: bprLast } : null,
    outbox: stats(series, (s) => s.outbox, from)!,
    rejected: stats(series, (s) => s.rejected, from)!,
    conflicts: stats(series, (s) => s.conflicts, from)!,
    quarantined: stats(series, (s) => s.quarantined, from)!,
  };
}

function judge(t: TabSeries): DayAim[] {
  const heap: DayAim =
    !t.heap || t.heapGrowth === null || t.heapSlopePer10Min === null
      ? { aim: 'heap flat', tab: t.tab, met: null, detail: 'n/a: the engine gives no heap reading' }
      : flatness('heap flat', t.tab, t.heap, t.heapGrowth, t.heapSlopePer10Min, t.minutes);
  let bytes: DayAim;
  if (!t.bytesPerRecord) bytes = { aim: 'bytes per record steady', tab: t.tab, met: null, detail: 'n/a: the engine gives no storage estimate' };
  else {
    const { afterFirstSync, last } = t.bytesPerRecord;
    bytes = {
      aim: 'bytes per record steady',
      tab: t.tab,
      met: last <= afterFirstSync * BYTES_PER_RECORD_RATIO,
      detail: `${Math.round(afterFirstSync)} B/record after the first sync (${t.records.afterFirstSync} records), ${Math.round(last)} at the end (${t.records.last}); at most ${BYTES_PER_RECORD_RATIO}×`,
    };
  }
  const left = { outbox: t.outbox.last, rejected: t.rejected.last, conflicts: t.conflicts.last, quarantined: t.quarantined.last };
  const empty: DayAim = {
    aim: 'sync tables empty',
    tab: t.tab,
    met: Object.values(left).every((n) => n === 0),
    detail: `at the end ${Object.entries(left).map(([k, n]) => `${k} ${n}`).join(', ')} (most during the run: outbox ${t.outbox.max}, conflicts ${t.conflicts.max}, quarantined ${t.quarantined.max})`,
  };
  return [heap, bytes, empty];
}

/** A measure's first, after-first-sync (at `from`), least, most and last readings; null when it has no reading. */
function stats<S>(series: readonly S[], read: (s: S) => number | null, from: number): SeriesStats | null {
  const values = series.map(read);
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return null;
  const at = (i: number) => values.slice(i).find((v): v is number => v !== null) ?? known[known.length - 1]!;
  return { first: known[0]!, afterFirstSync: at(from), min: Math.min(...known), max: Math.max(...known), last: known[known.length - 1]! };
}

/** The slope of the least-squares line through the points (y per x). */
export function leastSquaresSlope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}
