/**
 * Firefox ESR from Debian (`firefox-esr` on `PATH`, `FIREFOX_PATH` overrides), driven by
 * puppeteer-core over WebDriver BiDi, headless, with a fresh profile per launch.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type KeyInput, type Page } from 'puppeteer-core';
import { NAME_HELPER, type EngineBrowser, type EngineTab, type LaunchOptions } from './engine.js';
import { descendants, lid } from './processes.js';
import { firefoxProgram, requireProgram } from './programs.js';

/** Launches Firefox with a fresh profile. */
export async function launchFirefox(options: LaunchOptions = {}): Promise<EngineBrowser> {
  const executablePath = requireProgram(firefoxProgram());
  const locale = options.locale ?? 'en-US';
  const profile = await mkdtemp(join(tmpdir(), 'pos-cloud-mirror-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    userDataDir: profile,
    env: { ...process.env, TZ: options.timezone ?? 'Europe/Prague' },
    defaultViewport: options.viewport ?? { width: 1280, height: 860 },
    extraPrefsFirefox: {
      // The language a device set to `locale` reports and formats with.
      'intl.accept_languages': locale,
      'intl.locale.requested': locale,
      'javascript.use_us_english_locale': false,
      // No update checks or telemetry: the machine's network is closed.
      'app.update.enabled': false,
      'toolkit.telemetry.enabled': false,
      ...(options.storageLimit === undefined ? {} : { 'dom.quotaManager.temporaryStorage.fixedLimit': Math.max(1, Math.floor(options.storageLimit / 1024)) }),
    },
  });
  const version = (await browser.version()).replace(/^firefox\//i, 'Firefox ');
  const root = browser.process()?.pid;
  const pageProcesses = (): number[] => {
    if (root === undefined) throw new Error('Firefox: the browser process is not known, its page processes cannot be found');
    return descendants(root, /-contentproc.*\btab\b/);
  };
  const pageLid = lid(pageProcesses);
  return {
    engine: 'firefox',
    version,
    profileDir: profile,
    async newTab() {
      const page = await browser.newPage();
      await page.evaluateOnNewDocument(NAME_HELPER);
      return firefoxTab(page);
    },
    pageProcesses,
    suspend: pageLid.suspend,
    async close() {
      pageLid.resumeAll();
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

function firefoxTab(page: Page): EngineTab {
  return {
    engine: 'firefox',
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' });
    },
    async reload() {
      await page.reload({ waitUntil: 'load' });
    },
    async evaluate(fn, arg) {
      // WebDriver BiDi sends an object reached twice in one result only once (the second place arrives
      // undefined), so the result crosses as JSON text, which copies it wherever it appears.
      const text = await page.evaluate(
        `(async () => { const result = await (${fn.toString()})(${JSON.stringify(arg)}); return result === undefined ? undefined : JSON.stringify(result); })()`,
      ) as string | undefined;
      return (text === undefined ? undefined : JSON.parse(text)) as never;
    },
    async addScript(code) {
      await page.addScriptTag({ content: code });
    },
    async click(selector) {
      // A locator waits until the node is attached, visible, enabled and no longer moving, and finds
      // it again when the page re-rendered it in between, as Playwright's click does in Chromium (and
      // a person would): a view still being laid out is not a failure of the page.
      await page.locator(selector).click();
    },
    async fill(selector, value) {
      if (value === '') {
        // Puppeteer empties a field without an input event: select everything and delete it instead, as a person does.
        await page.focus(selector);
        await page.keyboard.down('Control');
        await page.keyboard.press('a');
        await page.keyboard.up('Control');
        await page.keyboard.press('Backspace');
        return;
      }
      await page.locator(selector).fill(value);
    },
    async press(selector, key) {
      await page.focus(selector);
      await page.keyboard.press(key as KeyInput);
    },
    async screenshot(path) {
      await page.screenshot({ path: path as `${string}.png`, fullPage: true });
    },
    async setOffline(offline) {
      await page.setOfflineMode(offline);
    },
    async close() {
      await page.close({ runBeforeUnload: false });
    },
  };
}
