/**
 * Chromium from Debian (`chromium` on `PATH`, `CHROMIUM_PATH` overrides), driven by playwright-core
 * over CDP with a fresh profile per launch.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { NAME_HELPER, type EngineBrowser, type EngineTab, type LaunchOptions } from './engine.js';
import { lid, matching } from './processes.js';
import { chromiumProgram, requireProgram } from './programs.js';

/**
 * Flags for a closed network and a root user: no sandbox (root), no GPU, and none of the
 * background connections to Google's hosts that this machine refuses.
 */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches Chromium with a fresh profile. */
export async function launchChromium(options: LaunchOptions = {}): Promise<EngineBrowser> {
  const executablePath = requireProgram(chromiumProgram());
  const profile = await mkdtemp(join(tmpdir(), 'pos-cloud-mirror-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    locale: options.locale ?? 'en-US',
    timezoneId: options.timezone ?? 'Europe/Prague',
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  const version = `Chromium ${context.browser()?.version() ?? (await versionOf(context.pages()[0] ?? (await context.newPage())))}`;
  // The first, blank page the persistent context opens with is not a tab of the caller's.
  for (const page of context.pages()) await page.close();
  const pageProcesses = (): number[] => matching(new RegExp(`--type=renderer.*${escape(profile)}|${escape(profile)}.*--type=renderer`));
  const pageLid = lid(pageProcesses);
  return {
    engine: 'chromium',
    version,
    profileDir: profile,
    async newTab() {
      const page = await context.newPage();
      await page.addInitScript(NAME_HELPER);
      return chromiumTab(page, options.storageLimit);
    },
    pageProcesses,
    suspend: pageLid.suspend,
    async close() {
      pageLid.resumeAll();
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

async function versionOf(page: Page): Promise<string> {
  const agent = await page.evaluate(() => navigator.userAgent);
  return /Chrome\/([\d.]+)/.exec(agent)?.[1] ?? 'unknown';
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A tab: the page, plus a CDP session for what only CDP does per tab (offline, freeze, a storage limit, the profiler). */
function chromiumTab(page: Page, storageLimit: number | undefined): EngineTab {
  const cdp = page.context().newCDPSession(page);
  return {
    engine: 'chromium',
    async goto(url) {
      if (storageLimit !== undefined) {
        await (await cdp).send('Storage.overrideQuotaForOrigin', { origin: new URL(url).origin, quotaSize: storageLimit });
      }
      await page.goto(url, { waitUntil: 'load' });
    },
    async reload() {
      await page.reload({ waitUntil: 'load' });
    },
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    async addScript(code) {
      await page.addScriptTag({ content: code });
    },
    async click(selector) {
      await page.click(selector);
    },
    async fill(selector, value) {
      await page.fill(selector, value);
    },
    async press(selector, key) {
      await page.press(selector, key);
    },
    async screenshot(path) {
      await page.screenshot({ path, fullPage: true });
    },
    async setOffline(offline) {
      await (await cdp).send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    },
    async freeze(frozen) {
      // `Page.setWebLifecycleState` freezes only a hidden page, and a page Playwright drives in
      // headless mode stays visible: nothing would stop. Pausing the page's script does what a
      // frozen tab does to it: no timer, network answer or IndexedDB callback runs until it thaws
      // (they wait, in order), and what it holds (a Web Lock, an open transaction) stays held.
      const session = await cdp;
      if (frozen) {
        await session.send('Debugger.enable');
        await session.send('Debugger.pause');
      } else {
        await session.send('Debugger.resume').catch(() => undefined);
        await session.send('Debugger.disable');
      }
    },
    async cdp(method, params) {
      // Playwright types each command it knows; a caller of this escape hatch reads the result itself.
      return (await cdp).send(method as never, params as never);
    },
    async close() {
      await page.close({ runBeforeUnload: false });
    },
  };
}
