/**
 * Code taken out of the README as a test runs it: a block found by what it holds, with the
 * package's import specifiers pointed at the sources (`pos-cloud-mirror/react` at
 * `src/react/index.ts`), so a test runs exactly what the README shows and breaks when it breaks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENTRY_SOURCES } from '../../scripts/docs/entry-sources.js';
import { typeScriptBlocks } from '../../scripts/docs/code-blocks.js';
import { repoPath } from '../../scripts/bundle-for-browser.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The one ts/tsx block of the README under the heading `heading` (`## React`). */
export function readmeBlock(heading: string, lang: 'ts' | 'tsx'): string {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const next = readme.indexOf('\n## ', start + heading.length + 2);
  const section = readme.slice(start, next < 0 ? undefined : next);
  const blocks = typeScriptBlocks(section).filter((block) => block.lang === lang);
  if (blocks.length !== 1) throw new Error(`README.md's "${heading}" holds ${blocks.length} ${lang} blocks, not one`);
  return withSourceImports(blocks[0]!.code);
}

/** `code` with the package's entries imported from their sources by absolute path. */
export function withSourceImports(code: string): string {
  return code.replace(/from '(pos-cloud-mirror(?:\/[a-z]+)?)'/g, (whole, name: string) => {
    const source = ENTRY_SOURCES[name];
    return source ? `from ${JSON.stringify(repoPath(source))}` : whole;
  });
}
