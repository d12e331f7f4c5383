/**
 * One browser soak run: the simulator over HTTP on 127.0.0.1, an app server serving the soak app
 * (page errors reported to it), a report server for what the pages tell, a real browser of the
 * engine asked for with `tabs` tabs of one profile, each behind a proxy of its own; then, until
 * the time is up, every tab's user acting (`users.ts`), the chaos (`chaos.ts`) and the registers
 * selling; then settling (`settle.ts`) and the checks (`browser-checks.ts`). With storage kills,
 * the browser is WebKit driven through its inspector (`launchInspectedWebKit`), whose storage
 * process can be killed without ending the session. A day at the register (`--day`) has the shop's
 * day (`day-shop.ts`) in place of the chaos, and samples the tabs as it goes (`day-sampler.ts`).
 *
 * Unlike the Node soak, things happen at once here, as in a browser: the tabs act while the
 * leader syncs and the chaos strikes. Writes on the server can therefore meet a push built before
 * them (the service has no conditional write); the proxies see every request, and the checks
 * explain such a replaced write only when no tab had been sent the write before that push.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppServer, type AppServer } from '../app-server.js';
import { launchEngine, type EngineBrowser } from '../engines/index.js';
import { launchInspectedWebKit } from '../engines/webkit-inspected.js';
import type { PageError } from '../engines/page-errors.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import { createSimulator, type FaultCounts, type Simulator } from '../../src/simulator/index.js';
import type { AnyRecord, SoakState } from '../soak/checks.js';
import { Ledger } from '../soak/ledger.js';
import type { OutboxEntry } from '../../src/db/sync-rows.js';
import { BackOffice } from './back-office.js';
import { replay, type LedgerCall } from './page/recording-ledger.js';
import { checkBrowserSoak, type BrowserCheckResult, type BrowserSoakState } from './browser-checks.js';
import { Chaos, type ChaosCounts } from './chaos.js';
import { DaySampler, heapMeasure } from './day-sampler.js';
import { summarizeDay, type DaySummary } from './day-series.js';
import { DayShop } from './day-shop.js';
import type { BrowserSoakOptions } from './options.js';
import type { PageSnapshot } from './page/soak-page.js';
import { startReportServer, type ReportServer } from './report-server.js';
import { ServiceWatch } from './service-watch.js';
import { settleTabs, type SettleOutcome } from './settle.js';
import { refusedButStored } from './refused-saves.js';
import { buildSoakSite, type SoakSite } from './site.js';
import type { PageHangError } from './soak-tab.js';
import { TabSet } from './tab-set.js';
import { TRACE_DIR, writeTrace } from './trace.js';
import { Users, type UserCounts } from './users.js';

/** The database every tab's mirror opens (one origin, one profile: they share it). */
export const SOAK_DB_NAME = 'pos-cloud-mirror-browser-soak';
/** The pages' poll interval: the leader syncs often, so traps find traffic. */
const POLL_MS = 2_000;
/** Sales a second while the plan runs. */
const SALES_PER_SECOND = 1;
/** A day at the register: the pages poll as an app would, only more often than the default 30 s. */
const DAY_POLL_MS = 10_000;
/** A day at the register: a sale every 6 s, a busy shop's pace. */
const DAY_SALES_PER_SECOND = 1 / 6;
/** A day at the register: the users think 20 times as long (3 to 30 s between actions). */
const DAY_THINK_SCALE = 20;

/** What a day at the register sampled, summed up, and where its series went. */
export interface DayResult {
  heapMeasure: string;
  samples: number;
  summary: DaySummary;
  /** Readings that failed (a tab that did not answer). */
  failures: string[];
  /** The JSON file of the series. */
  file: string;
}

/** What a run did and what the checks found. */
export interface BrowserSoakResult {
  options: BrowserSoakOptions;
  browserVersion: string;
  elapsedMs: number;
  users: UserCounts;
  chaos: ChaosCounts;
  faults: FaultCounts & { phases: number };
  requests: number;
  registers: { sales: number; deliveries: number; edits: number; removes: number };
  tabs: { opened: number; open: number };
  conflicts: { noted: number; resolvedLocal: number; resolvedServer: number };
  collisions: { minted: number; tooLate: number; moved: number };
  /** User actions refused for a lost storage connection, and the steps of those stored all the same (see `refused-saves.ts`). */
  refusedSaves: { refused: number; stored: { step: number; kind: string }[] };
  settle: SettleOutcome;
  check: BrowserCheckResult;
  /** The trace of the records the violations are about (a JSON file), when there are any. */
  trace?: string;
  /** What the checks looked at, when asked for (`keepState`). */
  state?: BrowserSoakState;
  /** A day at the register's series and verdict (`--day`). */
  day?: DayResult;
}

/** Options of {@link runBrowserSoak} beyond the command line's. */
export interface BrowserRunHooks {
  /** Told every 10 s how far the run got. */
  progress?: (line: string) => void;
  keepState?: boolean;
}

/** Runs a browser soak (see the file's comment). */
export async function runBrowserSoak(options: BrowserSoakOptions, hooks: BrowserRunHooks = {}): Promise<BrowserSoakResult> {
  const started = performance.now();
  const rejections: string[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason));
  process.on('unhandledRejection', onRejection);
  const parts: { sim?: Simulator; reports?: ReportServer; site?: SoakSite; app?: AppServer; browser?: EngineBrowser; tabs?: TabSet } = {};
  // A call into a page that never answers fails the run (see `SoakTab.call`): the run is raced against it.
  let hung: (error: PageHangError) => void = () => undefined;
  const hang = new Promise<never>((_, reject) => (hung = reject));
  try {
    const run = async (): Promise<BrowserSoakResult> => {
      const sim = (parts.sim = await createSimulator({ seed: options.seed, size: 'tiny', clock: { start: Date.now() }, logSize: 100 }));
      const initialCounts = Object.fromEntries(COLLECTIONS.map((c) => [c, sim.store.count(c)])) as Record<CollectionName, number>;
      const watch = new ServiceWatch();
      const ledger = new Ledger();
      const backOffice = new BackOffice(sim, ledger, watch);
      const reports = (parts.reports = await startReportServer());
      const pageErrors: PageError[] = [];
      const site = (parts.site = await buildSoakSite());
      const app = (parts.app = await createAppServer({ root: site.root, config: { baseUrl: sim.baseUrl, token: sim.token }, pageErrors: (e) => pageErrors.push(e) }));
      const browser = (parts.browser = options.storageKills ? await launchInspectedWebKit() : await launchEngine(options.engine));
      const tabs = (parts.tabs = new TabSet({ browser, appUrl: app.url, reportsUrl: reports.url, serviceUrl: sim.baseUrl, dbName: SOAK_DB_NAME, pollMs: options.day ? DAY_POLL_MS : POLL_MS, watch, collect: (list) => reports.merge(list), hung }));

      // The first tab makes the first sync alone; the others open on a mirror that has data.
      const first = await tabs.add();
      const sampler = options.day ? new DaySampler(started, browser) : undefined;
      await sampler?.round([first], 'start');
      for (let attempt = 0; ; attempt++) {
        const outcome = await first.call<{ error?: string }>('syncNow');
        if (!outcome.error) break;
        if (attempt >= 10) throw new Error(`the first sync failed: ${outcome.error}`);
      }
      while (tabs.open.length < options.tabs) await tabs.add();
      await sampler?.round(tabs.open, 'first-sync');

      let step = 0;
      const nextStep = () => ++step;
      const users = new Users({ seed: options.seed, ledger, nextStep, ...(options.day ? { thinkScale: DAY_THINK_SCALE } : {}) });
      const chaos = options.day ? new DayShop({ seed: options.seed, tabs, backOffice, nextStep }) : new Chaos({ options, sim, browser, tabs, backOffice, ledger, nextStep, onTabOpened: (tab) => users.start(tab), nextSave: (ms) => users.nextSave(ms) });
      for (const tab of tabs.open) users.start(tab);
      backOffice.registers.startSelling(options.day ? DAY_SALES_PER_SECOND : SALES_PER_SECOND);
      const deadline = started + options.minutes * 60_000;
      const ticker = setInterval(() => {
        hooks.progress?.(`${Math.round((performance.now() - started) / 1000)} s: ${users.counts.actions} actions, ${chaos.counts.actions} chaos, ${tabs.open.length} tabs open, ${sim.requests.count()} requests`);
      }, 10_000);
      const chaosDone = chaos.run(() => performance.now() < deadline);
      const sampling = sampler?.run(() => tabs.open, () => performance.now() < deadline);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));
      clearInterval(ticker);

      // Settle: the chaos ends and everything it did is undone, the users stop, the outbox drains.
      await chaosDone;
      await chaos.restoreAll();
      backOffice.registers.stopSelling();
      sim.setFaults({});
      await users.stop();
      const settled = await settleTabs(tabs, ledger, nextStep);
      await sampling;
      await sampler?.round(tabs.open, 'end');
      const runEnd = Date.now();

      const devices = [];
      for (const tab of tabs.open) await tab.collectReports();
      for (const tab of tabs.open) {
        const snapshot = await tab.call<PageSnapshot>('snapshot');
        devices.push({ writer: 'device 1' as const, label: `tab ${tab.slot}`, records: snapshot.records as unknown as Record<CollectionName, AnyRecord[]>, outbox: snapshot.outbox as OutboxEntry[], orphanedCreates: snapshot.orphanedCreates });
      }
      const server = Object.fromEntries(COLLECTIONS.map((c) => [c, sim.store.list(c)])) as Record<CollectionName, AnyRecord[]>;
      // A report or a rejection still on its way (a beacon, a timer late) reaches its listener.
      await new Promise((resolve) => setTimeout(resolve, 500));
      // What the pages reported doing, acknowledged or not (a tab reloaded before the answer came).
      const witnessed = new Ledger();
      let unreadable = 0;
      for (const report of [...reports.reports].sort((a, b) => a.at - b.at)) {
        // A witness only explains (it is never checked): one the engine handed back damaged is left
        // out, which can only make the checks stricter, and counted.
        const calls = report.kind === 'notes' || report.kind === 'intent' ? report.calls.filter(wellFormed) : [];
        if (report.kind === 'notes' || report.kind === 'intent') unreadable += report.calls.length - calls.length;
        if (report.kind === 'notes') replay(witnessed, calls);
        // An edit told before its commit is witnessed once a POST carried the value it wrote: values
        // are unique, so only that edit's transaction, which read what it wrote over, made it.
        if (report.kind === 'intent') replay(witnessed, calls.filter((call) => committedWrite(watch, call)));
      }
      if (unreadable > 0) hooks.progress?.(`${unreadable} witnessed ledger notes came back unreadable from the pages and were left out`);
      const soak: SoakState = {
        server,
        initialCounts,
        devices,
        ledger,
        witnessed,
        unhandledRejections: rejections,
        operationErrors: [...users.errors, ...chaos.errors],
        writtenBlind: (w) => backOffice.writtenBlind(w),
      };
      const state: BrowserSoakState = { soak, reports: reports.reports, ended: tabs.context.ended, going: tabs.context.going, runEnd, pageErrors, collisions: backOffice.collisions };
      const check = checkBrowserSoak(state);
      const trace =
        check.violations.length === 0
          ? undefined
          : await writeTrace(`${options.engine}-seed${options.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`, {
              violations: check.violations,
              ledger,
              backOffice,
              watch,
              chaos: chaos.events,
              users: users.log,
              leaders: check.leaders.spans,
              server,
              tabs: devices.map((d) => ({ label: d.label, records: d.records })),
            });
      const registers = backOffice.registers.counts;
      const day = sampler ? await writeDay(options, browser.version, sampler) : undefined;
      return {
        options,
        browserVersion: browser.version,
        elapsedMs: performance.now() - started,
        users: users.counts,
        chaos: chaos.counts,
        faults: { ...sim.requests.faultCounts(), phases: chaos.counts.faultPhases },
        requests: sim.requests.count(),
        registers: { sales: registers.sales, deliveries: registers.deliveries, edits: registers.edits, removes: registers.removes },
        tabs: { opened: tabs.all.length, open: tabs.open.length },
        conflicts: {
          noted: ledger.conflicts.length,
          resolvedLocal: ledger.conflicts.filter((c) => c.resolved?.choice === 'local').length,
          resolvedServer: ledger.conflicts.filter((c) => c.resolved?.choice === 'server').length,
        },
        collisions: {
          minted: backOffice.collisions.filter((c) => c.state === 'written').length,
          tooLate: backOffice.collisions.filter((c) => c.state === 'too-late').length,
          moved: check.collisionsMoved,
        },
        refusedSaves: refusedButStored(users.log, reports.reports, server, watch),
        settle: settled,
        check,
        ...(trace ? { trace } : {}),
        ...(hooks.keepState ? { state } : {}),
        ...(day ? { day } : {}),
      };
    };
    return await Promise.race([run(), hang]);
  } finally {
    await parts.browser?.close().catch(() => undefined);
    for (const tab of parts.tabs?.all ?? []) await tab.proxy.close().catch(() => undefined);
    await parts.app?.stop().catch(() => undefined);
    await parts.reports?.close().catch(() => undefined);
    await parts.sim?.close().catch(() => undefined);
    await parts.site?.remove().catch(() => undefined);
    process.off('unhandledRejection', onRejection);
  }
}

/** Sums up a day at the register's series and writes it, with the summary, as JSON in {@link TRACE_DIR}. */
async function writeDay(options: BrowserSoakOptions, browserVersion: string, sampler: DaySampler): Promise<DayResult> {
  const summary = summarizeDay(sampler.samples, sampler.pageSamples);
  const measure = heapMeasure(options.engine);
  const file = join(TRACE_DIR, `day-${options.engine}-seed${options.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await mkdir(TRACE_DIR, { recursive: true });
  await writeFile(file, JSON.stringify({ options, browserVersion, heapMeasure: measure, summary, failures: sampler.failures, samples: sampler.samples, pageSamples: sampler.pageSamples }, null, 1));
  return { heapMeasure: measure, samples: sampler.samples.length, summary, failures: sampler.failures, file };
}

/** Whether an edit's intended note (`wrote`) was committed: a POST carried every value it wrote. */
function committedWrite(watch: ServiceWatch, call: LedgerCall): boolean {
  if (call[0] !== 'wrote') return false;
  const [, , collection, id, , values] = call[1];
  return Object.entries(values).every(([field, value]) => watch.postedValue(collection, String(id), field, value));
}

/** Whether a ledger note came back from a page whole: a method, and for a write the values it wrote. */
function wellFormed(call: LedgerCall): boolean {
  if (!Array.isArray(call) || !Array.isArray(call[1])) return false;
  if (call[0] === 'wrote') return typeof call[1][5] === 'object' && call[1][5] !== null;
  return true;
}
