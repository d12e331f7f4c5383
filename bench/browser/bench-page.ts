/**
 * The page the browser benchmarks run in, the same in every engine: a folder served by the app
 * server, which also proxies a simulator's API, so the page calls it on its own origin with no
 * cross-origin preflights (each simulator gets a server, an origin, of its own). The folder holds
 * `index.html`, which loads the page code of `in-page/` bundled and minified as an app ships it,
 * and when profiles are asked for, `profile.html`: the same code unminified, with its functions'
 * names and a comment naming each module, which a CPU profile is read against. Data files the
 * page fetches (a catalogue, a JSON document) are written beside them.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppServer, type AppServer } from '../../scripts/app-server.js';
import { bundleForBrowser, repoPath } from '../../scripts/bundle-for-browser.js';
import type { PageError } from '../../scripts/engines/page-errors.js';
import type { EngineBrowser, EngineTab } from '../../scripts/engines/index.js';
import type { JobName } from './in-page/index.js';
import type { JobState } from './in-page/jobs.js';
import type { PeerJobName } from './in-page/peer-run.js';

/** The folder the page is served from. */
const PAGE_DIR = repoPath('test-output/bench-page');
/** The unminified bundle, as the profiles name it. */
export const PROFILE_SCRIPT = 'bench-profile.js';

/** The bench page's folder, bundled; {@link BenchPage.serve} serves it. */
export interface BenchPage {
  /** Errors the pages reported (uncaught, unhandled rejections, `console.error`), from every server. */
  errors: PageError[];
  /** Writes a data file beside the page (every server serves it). */
  addFile(name: string, content: string): Promise<void>;
  /** Serves the page on its own origin, proxying `apiBaseUrl` (a simulator's API) when given. */
  serve(apiBaseUrl?: string): Promise<BenchServer>;
}

/** One server of the bench page: an origin of its own, so its pages have their own storage. */
export interface BenchServer {
  /** The API's base URL as the page reaches it (proxied on the page's origin). */
  apiBaseUrl: string;
  /** The address a file of the page is served at. */
  url(name: string): string;
  /** Opens a tab on the page (`profile`: the unminified one), its code loaded. */
  open(browser: EngineBrowser, options?: { profile?: boolean }): Promise<EngineTab>;
  stop(): Promise<void>;
}

/** Bundles the page code and writes the page's folder; `profile` adds the unminified page. */
export async function buildBenchPage(options: { profile?: boolean } = {}): Promise<BenchPage> {
  await mkdir(PAGE_DIR, { recursive: true });
  const entry = `export * from ${JSON.stringify(repoPath('bench/browser/in-page/index.ts'))};`;
  await writeFile(join(PAGE_DIR, 'bench.js'), await bundleForBrowser(entry, 'bench'));
  await writeFile(join(PAGE_DIR, 'index.html'), page('bench.js'));
  if (options.profile) {
    await writeFile(join(PAGE_DIR, PROFILE_SCRIPT), await bundleForBrowser(entry, 'bench', { minify: false }));
    await writeFile(join(PAGE_DIR, 'profile.html'), page(PROFILE_SCRIPT));
  }
  const errors: PageError[] = [];
  return {
    errors,
    addFile: (name, content) => writeFile(join(PAGE_DIR, name), content),
    async serve(apiBaseUrl) {
      const server: AppServer = await createAppServer({
        root: PAGE_DIR,
        ...(apiBaseUrl === undefined ? {} : { apiBaseUrl }),
        pageErrors: (error) => errors.push(error),
      });
      const url = (name: string) => new URL(name, server.url).href;
      return {
        apiBaseUrl: server.apiBaseUrl,
        url,
        async open(browser, options = {}) {
          const tab = await browser.newTab();
          await tab.goto(url(options.profile ? 'profile.html' : 'index.html'));
          return tab;
        },
        stop: () => server.stop(),
      };
    },
  };
}

/** The unminified bundle's source, to read a profile's line numbers against. */
export function profileScriptPath(): string {
  return join(PAGE_DIR, PROFILE_SCRIPT);
}

function page(script: string): string {
  return `<!doctype html><meta charset="utf-8"><title>pos-cloud-mirror bench</title><script src="${script}"></script>`;
}

/** How often a running job is asked whether it finished (ms). */
const POLL_MS = 200;

/**
 * Runs a measurement of `in-page/` in the tab and resolves with its result: started as a job and
 * polled, so that no automation client waits on one long script.
 */
export async function runJob<T>(tab: Pick<EngineTab, 'engine' | 'evaluate'>, name: JobName | PeerJobName, arg: unknown): Promise<T> {
  type Bench = { bench: { startJob(name: string, arg: unknown): number; pollJob(id: number): JobState } };
  const id = await tab.evaluate(
    ({ name, arg }) => (globalThis as unknown as Bench).bench.startJob(name, arg),
    { name, arg } as never,
  );
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const job = await tab.evaluate((id) => (globalThis as unknown as Bench).bench.pollJob(id), id);
    if (job.state === 'done') return job.value as T;
    if (job.state === 'failed') throw new Error(`${name} failed in ${tab.engine}: ${job.message}`);
  }
}
