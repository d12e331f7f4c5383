/**
 * `PROFILE=dir`: a CPU profile of the mirror's first sync of the small tenant, per engine. Each
 * engine gets a browser of its own for it (the figures are not taken under a profiler), a page with
 * the unminified bundle, one sync to warm up (compiled code, as in a long sync after its first
 * pages), then the profiled sync on a fresh database. The profile is written to `dir` and
 * summarised (`profile-summary.ts`):
 *
 * - Chromium: CDP's `Profiler` through the tab's DevTools session; a `.cpuprofile` DevTools opens.
 * - Firefox: WebDriver BiDi has no profiler; the Gecko profiler, started with the browser, writes
 *   the session's profile as it quits (`firefox-profile.ts`); profiler.firefox.com opens it.
 * - WebKit: WebDriver has no profiler and the inspector cannot be opened beside WebKitWebDriver; a
 *   MiniBrowser of its own is driven through its inspector instead (`scripts/engines/webkit-inspector.ts`), with
 *   JavaScriptCore's sampling profiler; its IndexedDB is on disk, unlike under WebDriver.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { launchEngine, type EngineName } from '../../scripts/engines/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { profileScriptPath, runJob, type BenchServer } from './bench-page.js';
import { chromiumSamples, profileChromium } from './chromium-profile.js';
import { firefoxSamples, geckoProfilerEnv } from './firefox-profile.js';
import type { MirrorSyncResult } from './in-page/mirror-sync.js';
import { bundleModules, summarize, type ProfileSummary } from './profile-summary.js';
import { inspectedTab, inspectWebKitPage } from '../../scripts/engines/webkit-inspector.js';
import { webkitSamples, type ScriptProfilerSamples } from './webkit-profile.js';

/** What profiling gave: the summary when there is a profile, and notes on what could not be done. */
export interface Profiled {
  summary?: ProfileSummary;
  notes: string[];
}

/** Profiles the small tenant's first sync in `engine` and summarises the profile. */
export async function profileFirstSync(engine: EngineName, server: BenchServer, sim: Simulator, dir: string): Promise<Profiled> {
  await mkdir(dir, { recursive: true });
  const moduleAt = bundleModules(profileScriptPath());
  const sync = (dbName: string) => ({ base: server.apiBaseUrl, token: sim.token, dbName, limitMs: 600_000, keep: false });
  sim.setOptions({ idsAsStrings: false });
  let summary: ProfileSummary;
  const notes: string[] = [];
  if (engine === 'webkit') {
    const page = await inspectWebKitPage(server.url('profile.html'));
    try {
      const tab = await inspectedTab(page);
      const warm = await runJob<MirrorSyncResult>(tab, 'mirrorSync', sync('profile-warm-up'));
      await page.send('ScriptProfiler.startTracking', { includeSamples: true });
      const complete = page.next('ScriptProfiler.trackingComplete');
      const profiled = await runJob<MirrorSyncResult>(tab, 'mirrorSync', sync('profile'));
      await page.send('ScriptProfiler.stopTracking');
      const profile = (await complete) as ScriptProfilerSamples;
      const file = resolve(join(dir, 'webkit-first-sync-small.json'));
      await writeFile(file, JSON.stringify(profile));
      const version = `${await page.evaluate<string>('navigator.userAgent')} (MiniBrowser through its inspector)`;
      summary = summarize(version, file, webkitSamples(profile, moduleAt), 'samples', profiled.ms);
      notes.push(
        `the WebKit profile ran in a MiniBrowser outside automation, IndexedDB on disk: its first sync took ${(warm.ms / 1000).toFixed(1)} s to warm up ` +
          `and ${(profiled.ms / 1000).toFixed(1)} s profiled (${warm.records} records); under WebDriver the session is ephemeral and IndexedDB in memory`,
      );
    } finally {
      await page.close();
    }
  } else if (engine === 'chromium') {
    const browser = await launchEngine(engine);
    try {
      const tab = await server.open(browser, { profile: true });
      await runJob<MirrorSyncResult>(tab, 'mirrorSync', sync('profile-warm-up'));
      const { profile } = await profileChromium(tab, () => runJob<MirrorSyncResult>(tab, 'mirrorSync', sync('profile')));
      const file = resolve(join(dir, 'chromium-first-sync-small.cpuprofile'));
      await writeFile(file, JSON.stringify(profile));
      summary = summarize(browser.version, file, chromiumSamples(profile, moduleAt), 'wall');
    } finally {
      await browser.close();
    }
  } else {
    const file = resolve(join(dir, 'firefox-first-sync-small.json'));
    const env = geckoProfilerEnv(file);
    // Firefox takes its environment when it starts: only this browser runs under the profiler.
    Object.assign(process.env, env);
    let version: string;
    try {
      const browser = await launchEngine(engine);
      version = browser.version;
      for (const name of Object.keys(env)) delete process.env[name];
      try {
        const tab = await server.open(browser, { profile: true });
        await runJob<MirrorSyncResult>(tab, 'mirrorSync', sync('profile-warm-up'));
        await runJob<MirrorSyncResult>(tab, 'mirrorSync', sync('profile'));
      } finally {
        // The profile is written as Firefox quits.
        await browser.close();
      }
    } finally {
      for (const name of Object.keys(env)) delete process.env[name];
    }
    const { samples, wallMs } = await firefoxSamples(file, moduleAt);
    summary = summarize(version, file, samples, 'cpu', wallMs);
  }
  return { summary, notes };
}
