import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ENTRIES } from '../../scripts/package-aliases.js';

const repo = normalize(join(dirname(fileURLToPath(import.meta.url)), '../..'));
const examples = join(repo, 'examples');

/** Every file an example is made of (what a user copies), by path relative to the repository; built output left out. */
function exampleFiles(dir = examples): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : exampleFiles(path);
    return [relative(repo, path)];
  });
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The modules a source file imports, as written. */
function specifiersOf(file: string): string[] {
  return [...readFileSync(join(repo, file), 'utf8').matchAll(SPECIFIER)].map((m) => m[1] ?? m[2]!);
}

const files = exampleFiles();
const sources = files.filter((f) => /\.tsx?$/.test(f));

describe('the examples', () => {
  it('name none of the mirror\'s own tables (`_sync_*`): what they need, the public API gives', () => {
    const naming = files.filter((f) => /\b_sync_\w*/.test(readFileSync(join(repo, f), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('import the library by its package name, never its sources in src/', () => {
    const intoSrc: string[] = [];
    for (const file of sources) {
      for (const spec of specifiersOf(file)) {
        const target = spec.startsWith('.') ? relative(repo, normalize(join(repo, dirname(file), spec))) : spec;
        if (target === 'src' || target.startsWith(`src${sep}`) || target.startsWith('src/') || /(^|\/)src\//.test(spec)) intoSrc.push(`${file}: ${spec}`);
      }
    }
    expect(intoSrc).toEqual([]);
    const named = new Set(sources.flatMap(specifiersOf).filter((spec) => spec.startsWith('pos-cloud-mirror')));
    expect([...named].filter((spec) => !(spec in PACKAGE_ENTRIES))).toEqual([]);
    expect(named.has('pos-cloud-mirror')).toBe(true);
  });

  it('resolve the package names as the package does: one alias per entry of its exports map, the same in tsconfig', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
    const entries = Object.keys(pkg.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
    expect(Object.keys(PACKAGE_ENTRIES).sort()).toEqual(entries.sort());
    const tsconfig = readFileSync(join(repo, 'tsconfig.json'), 'utf8');
    for (const [name, source] of Object.entries(PACKAGE_ENTRIES)) expect(tsconfig).toContain(`"${name}": ["./${source}"]`);
  });
});
