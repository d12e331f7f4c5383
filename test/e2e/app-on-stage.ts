/**
 * An example app on a stage, as the examples' tests use it: the stage with a first tab, the page
 * errors watched, and the service taken away and brought back the same way in every engine.
 */
import type { EngineName, EngineTab, LaunchOptions } from '../../scripts/engines/index.js';
import type { WebExample } from '../../scripts/build-example.js';
import type { createSimulator } from '../../src/simulator/index.js';
import { watchPageErrors, type PageErrorWatch } from './page-error-watch.js';
import { startStage, type Stage } from './stage.js';

/** A stage, its first tab, and the watch on what its pages report. */
export interface AppOnStage {
  stage: Stage;
  tab: EngineTab;
  watch: PageErrorWatch;
}

/** Starts `app` on a stage in `engine` and opens a tab (on `about:blank`). */
export async function openApp(app: WebExample, sim: Parameters<typeof createSimulator>[0], engine: EngineName, launch: LaunchOptions): Promise<AppOnStage> {
  const stage = await startStage(app, sim, engine, launch);
  return { stage, tab: await stage.browser.newTab(), watch: watchPageErrors(stage.errors) };
}

/**
 * The service goes away: the app server (the app and its API, one origin) stops, and the tab is
 * set offline where the engine can (Chromium, Firefox; not WebKit).
 */
export async function serviceGone(stage: Stage, tab: EngineTab): Promise<void> {
  await stage.server.stop();
  await tab.setOffline?.(true);
}

/** The service is back: the app server serves again, and the tab is online. */
export async function serviceBack(stage: Stage, tab: EngineTab): Promise<void> {
  await stage.server.start();
  await tab.setOffline?.(false);
}
