/**
 * What every end-to-end test stands on: a simulator, an example app built by Vite and served by
 * the app server (API proxied on the same origin), and a fresh headless Chromium.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { createAppServer, type AppServer } from '../../scripts/app-server.js';
import { buildExample, type WebExample } from '../../scripts/build-example.js';
import { createSimulator } from '../../src/simulator/index.js';
import { launchBrowser, type TestBrowser } from './browser.js';

/** Patience of `expect.poll` for what the page shows (the machine may be busy with other suites). */
export const POLL = { timeout: 15_000, interval: 100 } as const;
/** Patience for what crosses the network: a push, a pull, a leader taking over. */
export const SLOW = { timeout: 45_000, interval: 200 } as const;

/** Screenshots and builds of the tests (gitignored). */
export const OUTPUT = resolve(import.meta.dirname, '../../test-output');

type Simulator = Awaited<ReturnType<typeof createSimulator>>;

/** A running example: simulator, app server and browser. */
export interface Stage {
  /** Folder of the built app. */
  root: string;
  sim: Simulator;
  server: AppServer;
  browser: TestBrowser;
  close(): Promise<void>;
}

/** Builds and serves `app` against a fresh simulator, and launches the browser. */
export async function startStage(app: WebExample, sim: Parameters<typeof createSimulator>[0]): Promise<Stage> {
  const browser = await launchBrowser();
  const started: { sim?: Simulator; server?: AppServer } = {};
  const root = join(OUTPUT, 'e2e-build', `${app}-${process.pid}`);
  try {
    await buildExample(app, root);
    started.sim = await createSimulator({ port: 0, clock: { start: Date.now() }, ...sim });
    started.server = await createAppServer({
      root,
      apiBaseUrl: started.sim.baseUrl,
      config: { token: started.sim.token, tenant: `e2e-${process.pid}` },
    });
  } catch (error) {
    await browser.close();
    await started.sim?.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const { sim: s, server } = started as Required<typeof started>;
  return {
    root,
    sim: s,
    server,
    browser,
    async close() {
      await browser.close();
      await server.stop();
      await s.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page as `test-output/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(OUTPUT, 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** Waits until this page (the syncing tab) has completed a whole sync run and is idle. */
export async function waitForSyncRun(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForSelector('#status[data-cycle="done"][data-phase="idle"]', { timeout });
}
