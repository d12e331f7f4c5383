/**
 * What every end-to-end test stands on, in any engine: a simulator, an example app built by Vite
 * and served by the app server (API proxied on the same origin, page errors reported to it), and a
 * fresh browser of the engine asked for.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAppServer, type AppServer } from '../../scripts/app-server.js';
import { buildExample, type WebExample } from '../../scripts/build-example.js';
import { launchEngine, type EngineBrowser, type EngineName, type EngineTab, type LaunchOptions } from '../../scripts/engines/index.js';
import type { PageError } from '../../scripts/engines/page-errors.js';
import { createSimulator } from '../../src/simulator/index.js';

/** Screenshots and builds of the tests (gitignored). */
export const OUTPUT = resolve(import.meta.dirname, '../../test-output');

type Simulator = Awaited<ReturnType<typeof createSimulator>>;

/** A running example in one engine: simulator, app server and browser. */
export interface Stage {
  engine: EngineName;
  /** Folder of the built app. */
  root: string;
  sim: Simulator;
  server: AppServer;
  browser: EngineBrowser;
  /** Every error the app's pages reported (uncaught, unhandled rejection, console.error), in order. */
  errors: PageError[];
  close(): Promise<void>;
}

/** Builds and serves `app` against a fresh simulator, and launches `engine`. */
export async function startStage(app: WebExample, sim: Parameters<typeof createSimulator>[0], engine: EngineName, launch: LaunchOptions = {}): Promise<Stage> {
  const browser = await launchEngine(engine, launch);
  const started: { sim?: Simulator; server?: AppServer } = {};
  const root = join(OUTPUT, 'e2e-build', `${app}-${engine}-${process.pid}`);
  const errors: PageError[] = [];
  try {
    await buildExample(app, root);
    started.sim = await createSimulator({ port: 0, clock: { start: Date.now() }, ...sim });
    started.server = await createAppServer({
      root,
      apiBaseUrl: started.sim.baseUrl,
      config: { token: started.sim.token, tenant: `e2e-${process.pid}` },
      pageErrors: (error) => errors.push(error),
    });
  } catch (error) {
    await browser.close();
    await started.sim?.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const { sim: s, server } = started as Required<typeof started>;
  return {
    engine,
    root,
    sim: s,
    server,
    browser,
    errors,
    async close() {
      await browser.close();
      await server.stop();
      await s.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the tab as `test-output/screenshots/<name>-<engine>.png`. */
export async function screenshot(tab: EngineTab, name: string): Promise<void> {
  const dir = join(OUTPUT, 'screenshots');
  await mkdir(dir, { recursive: true });
  await tab.screenshot(join(dir, `${name}-${tab.engine}.png`));
}
