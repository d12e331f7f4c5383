/**
 * Bundles a few lines of module code (which may import the library's sources by absolute path
 * and its dependencies by name) into one script that sets `globalThis[name]` to the module's
 * exports, for a page to run: the browser benchmarks serve it beside their page, tests add it with
 * an engine tab's `addScript`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

const repo = resolve(fileURLToPath(import.meta.url), '../..');

/** Options of {@link bundleForBrowser}. */
export interface BundleOptions {
  /**
   * Minify, as an app ships its code. Unminified, functions keep their names and each module
   * starts with a comment naming its file (`// src/json/parse-json.ts`), which a CPU profile of
   * the page can be read against.
   * @default true
   */
  minify?: boolean;
}

/** Bundles `code` as an IIFE assigning its exports to `globalThis[name]`. */
export async function bundleForBrowser(code: string, name: string, options: BundleOptions = {}): Promise<string> {
  const dir = join(repo, 'test-output', 'browser-bundles');
  await mkdir(dir, { recursive: true });
  const entry = join(dir, `${name}-${process.pid}.ts`);
  await writeFile(entry, code);
  const result = await build({
    configFile: false,
    root: repo,
    logLevel: 'silent',
    build: {
      write: false,
      minify: options.minify ?? true,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name, fileName: () => 'bundle.js' },
    },
  }).finally(() => rm(entry, { force: true }));
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('bundleForBrowser: the build produced no script');
  return chunk.code;
}

/** Absolute path of a file of this repository, for imports in bundled code. */
export function repoPath(path: string): string {
  return resolve(repo, path);
}
