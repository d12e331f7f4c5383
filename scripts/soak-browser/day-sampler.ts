/**
 * The readings of a day at the register (`--day`): every {@link SAMPLE_EVERY_MS}, and before and
 * right after the first sync and once the run settled, each open tab's JS heap, its database's
 * size and rows per table, and its outbox, conflicts and quarantine (`day-series.ts` sums them up).
 *
 * The heap is the engine's own reading where it gives one: Chromium's JS heap in use through CDP
 * (`Runtime.getHeapUsage`, as the browser benchmark reads it), after a forced collection
 * (`HeapProfiler.collectGarbage`), so garbage not yet collected does not pass for growth. Firefox
 * and WebKit driven through WebDriver give none (`null`, reported as n/a).
 *
 * Each round also reads the browser's page processes once, for all the tabs: the memory each
 * holds (`memoryOf`, from `/proc`), the reading every engine gives.
 */
import type { EngineBrowser, EngineName } from '../engines/index.js';
import { memoryOf } from '../engines/processes.js';
import type { DayPhase, DaySample, HeapBeside, PagesSample } from './day-series.js';
import type { PageFootprint } from './page/soak-page.js';
import type { SoakTab } from './soak-tab.js';

/** How often each tab is read during the run (ms). */
export const SAMPLE_EVERY_MS = 30_000;

/** What the heap readings of an engine are, or why there are none. */
export function heapMeasure(engine: EngineName): string {
  return engine === 'chromium'
    ? 'JS heap in use after a forced collection (CDP HeapProfiler.collectGarbage, then Runtime.getHeapUsage)'
    : `n/a: ${engine === 'firefox' ? 'Firefox' : 'WebKit'} driven through WebDriver gives no heap reading`;
}

/** The readings of one run. */
export class DaySampler {
  readonly samples: DaySample[] = [];
  /** The page processes' readings, one a round. */
  readonly pageSamples: PagesSample[] = [];
  /** Readings that failed (a tab that did not answer), with why. */
  readonly failures: string[] = [];

  constructor(
    private readonly started: number,
    private readonly browser: EngineBrowser,
  ) {}

  /** Reads each of `tabs`, then the page processes. */
  async round(tabs: readonly SoakTab[], phase: DayPhase): Promise<void> {
    for (const tab of tabs) await this.sample(tab, phase);
    try {
      const processes = Object.fromEntries(this.browser.pageProcesses().map((pid) => [pid, memoryOf([pid])]));
      this.pageSamples.push({ atMs: Math.round(performance.now() - this.started), phase, processes });
    } catch (error) {
      this.failures.push(`page processes, ${phase}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }

  /** Reads one tab now. */
  async sample(tab: SoakTab, phase: DayPhase): Promise<void> {
    try {
      const { heap, beside } = await readHeap(tab);
      const page = await tab.call<PageFootprint>('footprint');
      const records = Object.values(page.tables).reduce((sum, n) => sum + n, 0);
      this.samples.push({ atMs: Math.round(performance.now() - this.started), tab: tab.slot, phase, heap, ...(beside ? { beside } : {}), usage: page.usage, tables: page.tables, records, outbox: page.outbox, rejected: page.rejected, conflicts: page.conflicts, quarantined: page.quarantined });
    } catch (error) {
      this.failures.push(`tab ${tab.slot}, ${phase}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }

  /** Reads every open tab every {@link SAMPLE_EVERY_MS} while `going()`. */
  async run(tabs: () => readonly SoakTab[], going: () => boolean): Promise<void> {
    for (let next = performance.now() + SAMPLE_EVERY_MS; ; next += SAMPLE_EVERY_MS) {
      while (going() && performance.now() < next) await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, next - performance.now())));
      if (!going()) return;
      await this.round(tabs(), 'run');
    }
  }
}

/** The tab's JS heap in use after a collection, and what the page holds beside it (Chromium); else nulls. */
async function readHeap(tab: SoakTab): Promise<{ heap: number | null; beside: HeapBeside | null }> {
  const cdp = tab.tab.cdp?.bind(tab.tab);
  if (!cdp) return { heap: null, beside: null };
  await cdp('HeapProfiler.collectGarbage').catch(() => undefined);
  const usage = (await cdp('Runtime.getHeapUsage').catch(() => undefined)) as { usedSize?: number; embedderHeapUsedSize?: number; backingStorageSize?: number } | undefined;
  const dom = (await cdp('Memory.getDOMCounters').catch(() => undefined)) as { nodes?: number; jsEventListeners?: number } | undefined;
  const beside: HeapBeside = { embedderHeap: usage?.embedderHeapUsedSize ?? null, backingStores: usage?.backingStorageSize ?? null, domNodes: dom?.nodes ?? null, listeners: dom?.jsEventListeners ?? null };
  return { heap: typeof usage?.usedSize === 'number' ? usage.usedSize : null, beside };
}
