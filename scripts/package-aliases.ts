/**
 * The package's entry points by name, mapped to their sources in this repository, so that the
 * examples (and the tests that run them) import `pos-cloud-mirror` as an app does and still run
 * from a checkout without a build. `tsconfig.json` maps the same names (`paths`), for the compiler
 * and `tsx`; Vite takes these.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(import.meta.url), '../..');

/** Each subpath of the package's `exports` map and the source file it is built from. */
export const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  'pos-cloud-mirror': 'src/index.ts',
  'pos-cloud-mirror/react': 'src/react/index.ts',
  'pos-cloud-mirror/simulator': 'src/simulator/index.ts',
  'pos-cloud-mirror/node': 'src/node/index.ts',
};

/** Vite's `resolve.alias` for {@link PACKAGE_ENTRIES}: each name matched exactly, to its absolute source path. */
export function packageAliases(): { find: RegExp; replacement: string }[] {
  return Object.entries(PACKAGE_ENTRIES).map(([name, source]) => ({
    find: new RegExp(`^${name.replace(/[/-]/g, '\\$&')}$`),
    replacement: resolve(repo, source),
  }));
}
