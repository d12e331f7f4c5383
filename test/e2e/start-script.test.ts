/**
 * `npm start` as a person runs it against a service of their own: `--base-url URL` serves the app
 * without a simulator (the browser calls the service, which allows cross-origin requests), opened
 * in Chromium, Firefox and WebKit, or with `--proxy` through the app's server; the app asks for
 * the token, which is never served. A port in use names the command that picks a free one, with
 * npm's `--`. What goes wrong in the app's pages is printed by the script (`page error: …`): none may.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchEngine, type EngineBrowser } from '../../scripts/engines/index.js';
import { npmCommand, readStartOptions } from '../../scripts/start-options.js';
import { createSimulator } from '../../src/simulator/index.js';
import { count, text, waitForSelector, waitUntil } from './dom.js';
import { registersOf } from './sim-facts.js';
import { describeEngines } from '../engines/describe-engines.js';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/start.ts');

/** A run of `scripts/start.ts`: its output so far (it keeps growing), and the app's address once printed. */
interface StartRun {
  child: ChildProcess;
  url: string | undefined;
  code: number | null;
  output: { stdout: string; stderr: string };
}

/** Runs `scripts/start.ts`; resolves once it prints the app's address, or with its exit. */
function start(args: string[], env: Record<string, string> = {}): Promise<StartRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env: { ...process.env, npm_lifecycle_event: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  return new Promise((done, fail) => {
    child.stdout?.on('data', (d: Buffer) => {
      output.stdout += d.toString();
      const url = /Shop companion:\s+(http:\/\/\S+)/.exec(output.stdout)?.[1];
      if (url) done({ child, url, code: null, output });
    });
    child.stderr?.on('data', (d: Buffer) => (output.stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ child, url: undefined, code, output }));
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('close', () => done());
    child.kill('SIGTERM');
  });
}

/** The `page error: …` lines a run printed. */
const pageErrors = (run: StartRun) => run.output.stderr.split('\n').filter((line) => line.startsWith('page error:'));

describe('npm start against a service of your own', { timeout: 120_000 }, () => {
  let sim: Awaited<ReturnType<typeof createSimulator>>;

  beforeAll(async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 8, clock: { start: Date.now() }, activity: false });
  }, 60_000);
  afterAll(async () => {
    await sim?.close();
  });

  describe('with --base-url and no simulator', () => {
    let run: StartRun;

    beforeAll(async () => {
      run = await start(['--base-url', sim.baseUrl, '--port', '0']);
    }, 120_000);
    afterAll(async () => {
      await stop(run?.child);
    });

    it('serves the app, and a config with the service’s address and no token', async () => {
      expect(run.url, run.output.stderr).toBeDefined();
      expect(run.output.stdout).toContain(`must allow cross-origin requests from ${new URL(run.url!).origin}`);
      const config = (await (await fetch(new URL('config.json', run.url))).json()) as Record<string, unknown>;
      expect(config).toEqual({ baseUrl: sim.baseUrl });
    });

    describeEngines('in %s', {}, (engine) => {
      let browser: EngineBrowser;

      beforeAll(async () => {
        browser = await launchEngine(engine, { locale: 'en-US' });
      }, 60_000);
      afterAll(async () => {
        await browser?.close();
      });

      it('asks for the token and syncs with the service directly, and prints nothing but the page error caused on purpose', async () => {
        const printed = pageErrors(run).length;
        const tab = await browser.newTab();
        try {
          await tab.goto(run.url!);
          await waitForSelector(tab, '[data-test=connect-form]');
          expect(await text(tab, '[data-test=connect-form]')).toContain(sim.baseUrl);
          const before = sim.requests.recent().length;
          await tab.fill('[data-test=connect-form] input[name=token]', sim.token);
          await tab.click('[data-test=connect-form] button[type=submit]');
          await waitForSelector(tab, '#status[data-cycle="done"][data-phase="idle"]', { timeout: 60_000, interval: 200 });
          await waitUntil('every register', () => count(tab, '[data-test=register]'), (n) => n === registersOf(sim).length);
          // The service answered the app, which called it from its own origin.
          expect(sim.requests.recent().slice(before).some((r) => r.path.includes('/products'))).toBe(true);
          // The script prints what a page reports.
          await tab.evaluate(() => console.error('a page error on purpose'));
          await waitUntil('the page error printed', async () => pageErrors(run).length, (n) => n > printed);
        } finally {
          await tab.close();
        }
        expect(pageErrors(run).slice(printed)).toEqual([`page error: console.error: a page error on purpose (${run.url})`]);
      });
    });
  });

  it('forwards the API through the app’s server with --proxy, still without handing out a token', async () => {
    const run = await start(['--base-url', sim.baseUrl, '--proxy', '--port', '0']);
    try {
      expect(run.url, run.output.stderr).toBeDefined();
      const config = (await (await fetch(new URL('config.json', run.url))).json()) as Record<string, unknown>;
      expect(config).toEqual({ baseUrl: new URL(sim.baseUrl).pathname });
      const shops = await fetch(new URL(`${new URL(sim.baseUrl).pathname.slice(1)}/shops`, run.url), { headers: { authorization: `A|${sim.token}` } });
      expect(shops.status).toBe(200);
      expect(((await shops.json()) as unknown[]).length).toBe(sim.store.count('shops'));
    } finally {
      await stop(run.child);
    }
  });

  it('says which command picks a free port when the port is in use, with npm’s --', async () => {
    const busy: Server = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    try {
      const port = String((busy.address() as AddressInfo).port);
      const run = await start(['--base-url', sim.baseUrl, '--port', port], { npm_lifecycle_event: 'start' });
      expect(run.code).toBe(2);
      expect(run.output.stderr).toContain(`port ${port} is in use; try npm start -- --port 0`);
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });

  it('reads its flags, refusing what cannot work', () => {
    expect(npmCommand('--port 0', 'example:inventory')).toBe('npm run example:inventory -- --port 0');
    expect(npmCommand('--port 0', undefined)).toBe('npm start -- --port 0');
    expect(readStartOptions(['--base-url', 'https://pos.example.com/api/v1/', '--proxy'])).toMatchObject({ baseUrl: 'https://pos.example.com/api/v1', proxy: true });
    expect(() => readStartOptions(['--proxy'])).toThrow(/--proxy needs --base-url/);
    expect(() => readStartOptions(['--base-url', 'pos.example.com'])).toThrow(/--base-url/);
    expect(() => readStartOptions(['--port', 'x'])).toThrow(/--port/);
  });
});
