/**
 * The README's React component as written there, taken out of the README, bundled with React into
 * a page and rendered in Chromium against the simulator (its API proxied on the page's origin): it
 * lists the customers it synced, shows the sync's phase, and adds a customer that reaches the service.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppServer, type AppServer } from '../../scripts/app-server.js';
import { bundleForBrowser, repoPath } from '../../scripts/bundle-for-browser.js';
import { launchEngine, type EngineBrowser, type EngineTab } from '../../scripts/engines/index.js';
import type { PageError } from '../../scripts/engines/page-errors.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { count, SLOW, text, texts, waitUntil } from '../e2e/dom.js';
import { describeEngines } from '../engines/describe-engines.js';
import { readmeBlock } from './readme-code.js';

describeEngines("the README's React component in %s", { timeout: 120_000 }, (engine) => {
  let sim: Simulator;
  let server: AppServer;
  let browser: EngineBrowser;
  let tab: EngineTab;
  let root: string;
  let component: string;
  const errors: PageError[] = [];

  beforeAll(async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', clock: { start: Date.now() } });
    root = await mkdtemp(join(tmpdir(), 'readme-react-'));
    const dir = repoPath('test-output/readme');
    await mkdir(dir, { recursive: true });
    component = join(dir, `react-app-${process.pid}.tsx`);
    await writeFile(component, readmeBlock('## React', 'tsx'));
    const app = await bundleForBrowser(
      [
        "import { createElement } from 'react';",
        "import { createRoot } from 'react-dom/client';",
        `import { App } from ${JSON.stringify(component)};`,
        'export function mount(baseUrl: string, token: string): void {',
        "  const at = document.getElementById('root');",
        "  if (!at) throw new Error('no #root');",
        '  createRoot(at).render(createElement(App, { baseUrl, token }));',
        '}',
      ].join('\n'),
      'readmeApp',
    );
    await writeFile(join(root, 'app.js'), app);
    await writeFile(
      join(root, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"><title>README component</title>' +
        // React's bundle reads process.env.NODE_ENV, which an app's bundler replaces; the bundle's JSX is
        // compiled for development (jsxDEV), so React runs as in an app's development server.
        "<script>window.process = { env: { NODE_ENV: 'development' } };</script><script src=\"/app.js\"></script></head>" +
        '<body><div id="root"></div></body></html>',
    );
    server = await createAppServer({ root, apiBaseUrl: sim.baseUrl, pageErrors: (error) => errors.push(error) });
    browser = await launchEngine(engine);
    tab = await browser.newTab();
    await tab.goto(server.url);
    await tab.evaluate(([baseUrl, token]) => (window as unknown as { readmeApp: { mount(b: string, t: string): void } }).readmeApp.mount(baseUrl, token), [server.apiBaseUrl, sim.token] as [string, string]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
    if (root) await rm(root, { recursive: true, force: true });
    if (component) await rm(component, { force: true });
  });

  it('syncs, shows the phase, and lists the customers the simulator holds', async () => {
    const live = sim.store.list('customers').filter((c) => !c._d).length;
    expect(live).toBeGreaterThan(0);
    await waitUntil('the synced customers listed', () => count(tab, 'li'), (listed) => listed === Math.min(50, live), SLOW);
    await waitUntil('the phase idle after the first sync', () => text(tab, 'p'), (phase) => phase?.startsWith('idle') ?? false, SLOW);
    expect((await texts(tab, 'li')).every((name) => name.trim().length > 0)).toBe(true);
  });

  it('adds a customer through useSave, marks it until the service has it, and the service gets it', async () => {
    await tab.fill('input', 'Readmeová');
    await tab.click('button');
    await waitUntil('the new customer listed', () => texts(tab, 'li'), (names) => names.some((name) => name.startsWith('Readmeová')));
    await waitUntil('the customer on the service', async () => sim.store.list('customers').some((c) => c.lastname === 'Readmeová'), Boolean, SLOW);
    await waitUntil('the mark gone once in step', () => texts(tab, 'li small'), (marks) => marks.length === 0, SLOW);
    expect(errors.map((e) => `${e.kind}: ${e.message}`)).toEqual([]);
  });
}, ['chromium']);
