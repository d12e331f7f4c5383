/**
 * The soak app as the app server serves it: an `index.html` that loads `soak.js`, the page module
 * (`page/soak-page.ts`) bundled with the library into one script that sets `globalThis.soak`. A
 * reloaded page loads it again by itself, as an app does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForBrowser, repoPath } from '../bundle-for-browser.js';

/** A folder holding the built soak app; `remove()` deletes it. */
export interface SoakSite {
  root: string;
  remove(): Promise<void>;
}

/** Builds the soak app into a fresh temporary folder. */
export async function buildSoakSite(): Promise<SoakSite> {
  const root = await mkdtemp(join(tmpdir(), 'pos-cloud-mirror-soak-site-'));
  const script = await bundleForBrowser(`export * from ${JSON.stringify(repoPath('scripts/soak-browser/page/soak-page.ts'))};`, 'soak');
  await writeFile(join(root, 'soak.js'), script);
  await writeFile(join(root, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>soak</title></head><body><p>pos-cloud-mirror browser soak</p><script src="/soak.js"></script></body></html>');
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
