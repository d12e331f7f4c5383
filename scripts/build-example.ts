/**
 * Builds an example web app with Vite (its `examples/<name>/vite.config.ts` settings) into
 * `outDir` (default `examples/<name>/dist`) and returns that folder.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { exampleConfig } from '../examples/shared/vite-config.js';

/** The example web apps. */
export const WEB_EXAMPLES = ['pos-companion', 'inventory-count'] as const;
/** The name of an example web app (its folder under `examples/`). */
export type WebExample = (typeof WEB_EXAMPLES)[number];

const repo = resolve(fileURLToPath(import.meta.url), '../..');

/** Where `name` is built by default: `examples/<name>/dist`. */
export function exampleOutDir(name: WebExample): string {
  return exampleConfig(resolve(repo, 'examples', name)).build!.outDir!;
}

/** Builds `name` and resolves with the folder holding the built app. */
export async function buildExample(name: WebExample, outDir?: string): Promise<string> {
  const config = exampleConfig(resolve(repo, 'examples', name));
  const out = outDir ? resolve(outDir) : config.build!.outDir!;
  await build({ ...config, logLevel: 'silent', build: { ...config.build, outDir: out, sourcemap: false } });
  return out;
}
