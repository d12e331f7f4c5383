/**
 * What every conformance test stands on, in one engine: a simulator, an app server that serves the
 * conformance page and proxies the simulator's API on the page's origin (so the page is one origin,
 * as an app behind its own server is), page errors reported to that server, and one browser of the
 * engine for all the tests of a file. The browser reaches the app server through a front
 * (`front.ts`) that can cut the service alone or hold chosen requests to it.
 *
 * The page loads the library itself: `src/index.ts` and the page harness (`page/harness.ts`) are
 * bundled into the page's one script, so reloading the page reloads the library as an app's reload
 * does. Flags in the page's address change what the browser offers before that script runs
 * (`no-locks`: a browser without Web Locks; `quota`: a storage limit, see `page/features.js`).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { createAppServer, type AppServer } from '../../scripts/app-server.js';
import { bundleForBrowser, repoPath } from '../../scripts/bundle-for-browser.js';
import { launchEngine, type EngineBrowser, type EngineName, type EngineTab, type LaunchOptions } from '../../scripts/engines/index.js';
import type { PageError } from '../../scripts/engines/page-errors.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { POLL, waitUntil } from '../e2e/dom.js';
import { startFront, type Front } from './front.js';

/** What a page is opened with (see `page/features.js`, which runs before the library). */
export interface PageFlags {
  /** The browser offers no Web Locks (`navigator.locks` is taken away before the library loads). */
  'no-locks'?: boolean;
  /** The browser offers no `navigator.storage` (persist, estimate), as WebKitGTK does. */
  'no-storage-manager'?: boolean;
  /** A storage limit laid on IndexedDB in the page (bytes), for an engine that lets no test set a real one (WebKit). */
  quota?: number;
}

/** A simulator, the conformance page's server and a browser of one engine. */
export interface Stage {
  engine: EngineName;
  browser: EngineBrowser;
  sim: Simulator;
  server: AppServer;
  /** Every error a page reported (uncaught, unhandled rejection, console.error) not yet taken by a test. */
  errors: PageError[];
  /**
   * Whether `error` came from a tab while the test was closing it (from the `close()` call on) or
   * reloading it (from the `reload()` call until the reloaded page's load), by the page's clock.
   */
  wasGoing(error: PageError): boolean;
  /** Opens a tab on the conformance page, once its script has run. */
  openPage(flags?: PageFlags): Promise<EngineTab>;
  /** Address of the conformance page with `flags`. */
  pageUrl(flags?: PageFlags): string;
  /** The server in front of the app server: `front.cutService`, `front.stall` (see `front.ts`). */
  front: Front;
  close(): Promise<void>;
}

/** Options of {@link startStage}. */
export interface StageOptions {
  /** The simulator's options (`size: 'tiny'` unless given; its clock starts now). */
  sim?: SimulatorOptions;
  launch?: LaunchOptions;
  /** Starts the browser instead of `launchEngine(engine, launch)` (WebKit through its inspector, say). */
  browser?: () => Promise<EngineBrowser>;
}

/** Starts a {@link Stage} for `engine`. */
export async function startStage(engine: EngineName, options: StageOptions = {}): Promise<Stage> {
  const root = await mkdtemp(join(tmpdir(), `conformance-${engine}-`));
  const errors: PageError[] = [];
  const started: { sim?: Simulator; server?: AppServer; front?: Front; browser?: EngineBrowser } = {};
  try {
    await writePage(root);
    started.sim = await createSimulator({ port: 0, size: 'tiny', clock: { start: Date.now() }, ...options.sim });
    started.server = await createAppServer({ root, apiBaseUrl: started.sim.baseUrl, pageErrors: (error) => errors.push(error) });
    started.front = await startFront(started.server.url, new URL(started.sim.baseUrl).pathname);
    started.browser = await (options.browser ? options.browser() : launchEngine(engine, options.launch));
  } catch (error) {
    await started.front?.close();
    await started.server?.stop();
    await started.sim?.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const { sim, server, front, browser } = started as Required<typeof started>;
  const pageUrl = (flags: PageFlags = {}) => {
    const url = new URL(front.url);
    for (const [flag, value] of Object.entries(flags)) if (value !== undefined && value !== false) url.searchParams.set(flag, value === true ? '' : String(value));
    return url.href;
  };
  // Per tab (the id its page keeps in sessionStorage): the stretches of time the test was taking it away.
  const going = new Map<string, { from: number; to: number }[]>();
  const goingAway = (tab: EngineTab, id: string) => {
    const stretches = going.get(id) ?? [];
    going.set(id, stretches);
    const close = tab.close.bind(tab);
    const reload = tab.reload.bind(tab);
    tab.close = async () => {
      stretches.push({ from: Date.now(), to: Number.POSITIVE_INFINITY });
      await close();
    };
    tab.reload = async () => {
      const stretch = { from: Date.now(), to: Number.POSITIVE_INFINITY };
      stretches.push(stretch);
      try {
        await reload();
      } finally {
        stretch.to = Date.now();
      }
    };
  };
  return {
    engine,
    browser,
    sim,
    server,
    errors,
    wasGoing: (error) => error.at !== undefined && (going.get(error.tab) ?? []).some((s) => error.at! >= s.from && error.at! <= s.to),
    pageUrl,
    async openPage(flags) {
      const tab = await browser.newTab();
      await tab.goto(pageUrl(flags));
      await pageReady(tab);
      goingAway(tab, await tab.evaluate(() => sessionStorage.getItem('__pageErrorsTab') ?? ''));
      return tab;
    },
    front,
    async close() {
      await browser.close();
      await front.close();
      await server.stop();
      await sim.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Waits until the page's script has run (after a `goto` or a `reload`). */
export async function pageReady(tab: EngineTab): Promise<void> {
  await waitUntil('the conformance script', () => tab.evaluate(() => typeof (window as unknown as { conformance?: unknown }).conformance === 'object'), Boolean, POLL);
}

/**
 * Asserts that no page reported an error since the last call, and forgets what was reported: a
 * test that expects an error takes it out of `stage.errors` itself first.
 */
export function expectNoPageErrors(stage: Stage): void {
  const all = stage.errors.splice(0);
  const going = all.filter((e) => stage.wasGoing(e));
  // Firefox, closing a tab whose Dexie transactions are under way, runs some of the page's
  // microtasks and not others: Dexie's zone bookkeeping then throws ("can't access property
  // \"env\", e is undefined") from a page no one sees any more. Said, not failed on.
  if (going.length > 0) console.info(`${going.length} page error(s) from tabs the test was closing or reloading (not counted): ${[...new Set(going.map((e) => e.message))].join('; ')}`);
  const reported = all.filter((e) => !going.includes(e)).map((e) => `${e.kind}: ${e.message}${e.stack ? ` (at ${e.stack})` : ''}`);
  expect(reported).toEqual([]);
}

let tenants = 0;

/** A tenant name of its own, so each test's database is apart from the others' in one profile. */
export function freshTenant(what: string): string {
  return `${what}-${process.pid}-${++tenants}`;
}

async function writePage(root: string): Promise<void> {
  await writeFile(
    join(root, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>pos-cloud-mirror conformance</title>' +
      '<script src="/features.js"></script><script src="/conformance.js"></script></head><body></body></html>',
  );
  await writeFile(join(root, 'features.js'), await readFile(repoPath('test/browser/page/features.js')));
  await writeFile(join(root, 'conformance.js'), await libraryBundle());
}

const BUNDLE_INPUTS = ['src', 'test/browser/page'];
const PAGE_MODULES = ['src/index.ts', 'test/browser/page/harness.ts', 'test/browser/page/previous-release.ts', 'test/browser/page/pieces.ts', 'test/browser/page/storage-probe.ts'];

/**
 * The library and the page harness as one classic script setting `globalThis.conformance`, built
 * once per content of their sources (test files of one run share it through `test-output/`).
 */
async function libraryBundle(): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of BUNDLE_INPUTS) for (const file of await sourceFiles(repoPath(dir))) hash.update(file).update(await readFile(file));
  const dir = repoPath('test-output/browser-bundles');
  const cached = join(dir, `conformance-${hash.digest('hex').slice(0, 16)}.js`);
  const existing = await readFile(cached, 'utf8').catch(() => undefined);
  if (existing !== undefined) return existing;
  const code = await bundleForBrowser(PAGE_MODULES.map((path) => `export * from ${JSON.stringify(repoPath(path))};`).join('\n'), 'conformance');
  await mkdir(dir, { recursive: true });
  const partial = `${cached}.${process.pid}`;
  await writeFile(partial, code);
  await rename(partial, cached);
  return code;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = resolve(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}
