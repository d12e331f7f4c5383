/**
 * Headless Chromium for the end-to-end tests: Debian's build at /usr/bin/chromium (`.ci/run`
 * installs it), driven by playwright-core, with a fresh profile per launch. A missing browser
 * fails the suite with a message saying how to install it: it never skips.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where the browser is; `CHROMIUM_PATH` overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with one context (one profile: its tabs share IndexedDB, like a person's browser). */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh user-data-dir; throws when Chromium is not installed. */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: the end-to-end tests need it (apt-get install chromium; .ci/run does this)`);
  }
  const profile = await mkdtemp(join(tmpdir(), 'pos-cloud-mirror-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    locale: 'en-US',
    timezoneId: 'Europe/Prague',
    viewport: { width: 1280, height: 860 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
