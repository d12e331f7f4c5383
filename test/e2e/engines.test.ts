/**
 * The browser layer every browser suite stands on, in each engine: tabs of one profile share
 * IndexedDB, page code runs and throws the same way, long page work does not hold the other tabs,
 * and what goes wrong in a page reaches the server that served it, a closed tab's included.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppServer, type AppServer } from '../../scripts/app-server.js';
import { launchEngine, type EngineBrowser } from '../../scripts/engines/index.js';
import type { PageError } from '../../scripts/engines/page-errors.js';
import { memoryOf } from '../../scripts/engines/processes.js';
import { waitUntil } from './dom.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('the browser layer in %s', { timeout: 60_000 }, (engine) => {
  let browser: EngineBrowser;
  let server: AppServer;
  let root: string;
  const errors: PageError[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'engine-page-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><html><head><title>page</title></head><body><input id="name" oninput="window.inputs = (window.inputs || 0) + 1"><button id="go" onclick="window.clicks = (window.clicks || 0) + 1">go</button></body></html>');
    server = await createAppServer({ root, pageErrors: (error) => errors.push(error) });
    browser = await launchEngine(engine);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('names the engine and its version', () => {
    expect(browser.engine).toBe(engine);
    expect(browser.version).toMatch(/^(Chromium|Firefox|WebKitGTK) \d+\.\d+/);
  });

  it('runs page code in tabs of one profile: a database one tab creates is seen by the other', async () => {
    const first = await browser.newTab();
    const second = await browser.newTab();
    await first.goto(server.url);
    await second.goto(server.url);
    await first.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('shared-by-tabs', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('rows');
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
          open.onerror = () => reject(open.error);
        }),
    );
    expect(await second.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open('shared-by-tabs');
      open.onsuccess = () => {
        resolve([...open.result.objectStoreNames]);
        open.result.close();
      };
    }))).toEqual(['rows']);
    await first.close();
    await second.close();
  });

  it('returns what page code resolves to, rejects with what it throws, and does not hold one tab while another works', async () => {
    const slow = await browser.newTab();
    const quick = await browser.newTab();
    await slow.goto(server.url);
    await quick.goto(server.url);
    const slowWork = slow.evaluate((ms) => new Promise((resolve) => setTimeout(() => resolve('slow done'), ms)), 1_500);
    const started = Date.now();
    expect(await quick.evaluate((n) => n * 2, 21)).toBe(42);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await slowWork).toBe('slow done');
    await expect(quick.evaluate(() => Promise.reject(new Error('refused in the page')))).rejects.toThrow(/refused in the page/);
    // One object reached twice in a result comes back in both places (Firefox's BiDi sent the second as undefined).
    expect(await quick.evaluate(() => {
      const line = { sku: 'A-1', qty: 2 };
      return { first: line, again: line, list: [line, line] };
    })).toEqual({ first: { sku: 'A-1', qty: 2 }, again: { sku: 'A-1', qty: 2 }, list: [{ sku: 'A-1', qty: 2 }, { sku: 'A-1', qty: 2 }] });
    await slow.close();
    await quick.close();
  });

  it('types, clicks and presses keys as a person would', async () => {
    const tab = await browser.newTab();
    await tab.goto(server.url);
    await tab.fill('#name', 'Jana');
    await tab.click('#go');
    await tab.press('#name', 'Enter');
    expect(await tab.evaluate(() => [(document.querySelector('#name') as HTMLInputElement).value, (window as unknown as { clicks: number }).clicks])).toEqual(['Jana', 1]);
    // Emptying a field is heard by the page too (an input event), as when a person deletes its text.
    const inputs = () => tab.evaluate(() => (window as unknown as { inputs?: number }).inputs ?? 0);
    const before = await inputs();
    await tab.fill('#name', '');
    expect(await tab.evaluate(() => (document.querySelector('#name') as HTMLInputElement).value)).toBe('');
    expect(await inputs()).toBeGreaterThan(before);
    await tab.close();
  });

  it('reports uncaught errors, unhandled rejections and console.error to the server, also from a tab closed right after', async () => {
    errors.length = 0;
    const tab = await browser.newTab();
    await tab.goto(server.url);
    await tab.evaluate(() => {
      setTimeout(() => {
        throw new Error('thrown in a timer');
      });
      void Promise.reject(new Error('nobody caught this'));
      console.error('said on the console');
    });
    await tab.close();
    const kinds = await waitUntil('three reports', async () => errors.map((e) => `${e.kind}: ${e.message}`).sort(), (seen) => seen.length >= 3);
    expect(kinds).toEqual(['console.error: said on the console', 'error: Error: thrown in a timer', 'unhandledrejection: Error: nobody caught this']);
    expect(new Set(errors.map((e) => e.tab)).size).toBe(1);
  });

  it('suspends every page of the browser and resumes them: timers stand still meanwhile, then carry on', async () => {
    const tab = await browser.newTab();
    await tab.goto(server.url);
    await tab.evaluate(() => {
      const ticks: number[] = [];
      (window as unknown as { ticks: number[] }).ticks = ticks;
      setInterval(() => ticks.push(performance.now()), 20);
    });
    const ticking = () => tab.evaluate(() => (window as unknown as { ticks: number[] }).ticks.length);
    await waitUntil('the timer ticking', ticking, (n) => n >= 3);
    await browser.suspend(true);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await browser.suspend(false);
    const atResume = await ticking();
    await waitUntil('the timer ticking again', ticking, (n) => n >= atResume + 3);
    // The page saw time jump: its longest pause between ticks is the suspension (a busy machine delays a 20 ms timer, not by over a second).
    const longestPause = await tab.evaluate(() => {
      const ticks = (window as unknown as { ticks: number[] }).ticks;
      return Math.max(...ticks.slice(1).map((at, i) => at - ticks[i]!));
    });
    expect(longestPause).toBeGreaterThan(1_200);
    await tab.close();
  });

  it('finds the processes running its pages, and reads the memory a page takes in them', async () => {
    const tab = await browser.newTab();
    await tab.goto(server.url);
    const pids = browser.pageProcesses();
    expect(pids.length).toBeGreaterThan(0);
    const before = memoryOf(browser.pageProcesses());
    expect(before).toBeGreaterThan(0);
    // 64 MB the page holds on to, written so that every page of it is touched.
    await tab.evaluate(() => {
      const held = new Uint8Array(64 * 1024 * 1024);
      for (let i = 0; i < held.length; i += 4096) held[i] = 1;
      (window as unknown as { held: Uint8Array }).held = held;
    });
    expect(memoryOf(browser.pageProcesses()) - before).toBeGreaterThan(48 * 1024 * 1024);
    await tab.close();
  });

  // Only Chromium can freeze one tab (Firefox and WebKit have no such command: their soak suspends the whole browser).
  it.runIf(engine === 'chromium')('freezes one tab: its timers stop while the other tab runs, and go on once it is thawed', async () => {
    const frozen = await browser.newTab();
    const running = await browser.newTab();
    for (const tab of [frozen, running]) {
      await tab.goto(server.url);
      await tab.evaluate(() => {
        const w = window as unknown as { stamps: number[] };
        w.stamps = [];
        setInterval(() => w.stamps.push(Date.now()), 20);
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await frozen.freeze!(true);
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const until = Date.now();
    const ran = await running.evaluate(() => (window as unknown as { stamps: number[] }).stamps);
    await frozen.freeze!(false);
    const stamps = await frozen.evaluate(() => (window as unknown as { stamps: number[] }).stamps);
    // Not one tick of the frozen tab while it was frozen; the other tab ticked all along.
    expect(stamps.filter((t) => t > from + 50 && t < until - 50)).toEqual([]);
    expect(ran.filter((t) => t > from && t < until).length).toBeGreaterThan(10);
    expect(stamps.at(-1)).toBeGreaterThanOrEqual(until);
    await frozen.close();
    await running.close();
  });
});
