/**
 * `npm start` as a person runs it against a service of their own: `--base-url URL` serves the app
 * without a simulator (the browser calls the service, which allows cross-origin requests), or with
 * `--proxy` through the app's server; the app asks for the token, which is never served. A port in
 * use names the command that picks a free one, with npm's `--`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/simulator/index.js';
import { npmCommand, readStartOptions } from '../../scripts/start-options.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { POLL, waitForSyncRun } from './harness.js';
import { registersOf } from './sim-facts.js';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/start.ts');

/** Runs `scripts/start.ts`; resolves with the app's address once it prints it, or with the exit. */
function start(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string | undefined; code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env: { ...process.env, npm_lifecycle_event: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  return new Promise((done, fail) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /Shop companion:\s+(http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) done({ child, url, code: null, stdout, stderr });
    });
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ child, url: undefined, code, stdout, stderr }));
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('close', () => done());
    child.kill('SIGTERM');
  });
}

describe('npm start against a service of your own', { timeout: 120_000 }, () => {
  let sim: Awaited<ReturnType<typeof createSimulator>>;
  let browser: TestBrowser;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 8, clock: { start: Date.now() }, activity: false });
    browser = await launchBrowser();
  }, 60_000);
  afterEach(async () => {
    await stop(child);
    child = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it('serves the app for --base-url without a simulator; the app asks for the token and syncs with the service directly', async () => {
    const run = await start(['--base-url', sim.baseUrl, '--port', '0']);
    child = run.child;
    expect(run.url, run.stderr).toBeDefined();
    expect(run.stdout).toContain(`must allow cross-origin requests from ${new URL(run.url!).origin}`);
    const config = (await (await fetch(new URL('config.json', run.url))).json()) as Record<string, unknown>;
    expect(config).toEqual({ baseUrl: sim.baseUrl });

    const page = await browser.context.newPage();
    try {
      await page.goto(run.url!);
      await page.waitForSelector('[data-test=connect-form]');
      expect(await page.textContent('[data-test=connect-form]')).toContain(sim.baseUrl);
      await page.fill('[data-test=connect-form] input[name=token]', sim.token);
      await page.click('[data-test=connect-form] button[type=submit]');
      await waitForSyncRun(page);
      await expect.poll(() => page.locator('[data-test=register]').count(), POLL).toBe(registersOf(sim).length);
      // The service answered the app, which called it from its own origin.
      expect(sim.requests.recent().some((r) => r.path.includes('/products'))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('forwards the API through the app’s server with --proxy, still without handing out a token', async () => {
    const run = await start(['--base-url', sim.baseUrl, '--proxy', '--port', '0']);
    child = run.child;
    expect(run.url, run.stderr).toBeDefined();
    const config = (await (await fetch(new URL('config.json', run.url))).json()) as Record<string, unknown>;
    expect(config).toEqual({ baseUrl: new URL(sim.baseUrl).pathname });
    const shops = await fetch(new URL(`${new URL(sim.baseUrl).pathname.slice(1)}/shops`, run.url), { headers: { authorization: `A|${sim.token}` } });
    expect(shops.status).toBe(200);
    expect(((await shops.json()) as unknown[]).length).toBe(sim.store.count('shops'));
  });

  it('says which command picks a free port when the port is in use, with npm’s --', async () => {
    const busy: Server = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    try {
      const port = String((busy.address() as AddressInfo).port);
      const run = await start(['--base-url', sim.baseUrl, '--port', port], { npm_lifecycle_event: 'start' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`port ${port} is in use; try npm start -- --port 0`);
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
