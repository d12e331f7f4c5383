/**
 * `PROFILE=dir`: a CPU profile of the mirror's first sync of the small tenant, per engine, where the
 * engine offers one. Each engine gets a browser of its own for it (the figures are not taken under
 * a profiler), a page with the unminified bundle, one sync to warm up (compiled code, as in a long
 * sync after its first pages), then the profiled sync on a fresh database. The profile is written
 * to `dir` (Chromium: `.cpuprofile`, which DevTools opens; Firefox: the Gecko profiler's JSON,
 * which profiler.firefox.com opens) and summarised (`profile-summary.ts`).
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

/** Why WebKit gives no profile here. */
export const WEBKIT_NO_PROFILE =
  'no CPU profile in WebKit: W3C WebDriver (what WebKitWebDriver serves) has no profiler, and WebKitGTK\'s remote inspector, ' +
  'which has one (the ScriptProfiler domain, what Web Inspector\'s timelines use), cannot be opened beside WebKitWebDriver: ' +
  'the driver reaches the browser through the inspector server itself, and MiniBrowser started with WEBKIT_INSPECTOR_HTTP_SERVER ' +
  'never answers the driver (the session does not start)';

/** What profiling gave: the summary when there is a profile, and notes on what could not be done. */
export interface Profiled {
  summary?: ProfileSummary;
  notes: string[];
}

/** Profiles the small tenant's first sync in `engine` and summarises the profile. */
export async function profileFirstSync(engine: EngineName, server: BenchServer, sim: Simulator, dir: string): Promise<Profiled> {
  if (engine === 'webkit') return { notes: [WEBKIT_NO_PROFILE] };
  await mkdir(dir, { recursive: true });
  const moduleAt = bundleModules(profileScriptPath());
  const sync = (dbName: string) => ({ base: server.apiBaseUrl, token: sim.token, dbName, limitMs: 600_000, keep: false });
  sim.setOptions({ idsAsStrings: false });
  let summary: ProfileSummary;
  if (engine === 'chromium') {
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
  return { summary, notes: [] };
}
