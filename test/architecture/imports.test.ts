import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, src } from './source-files.js';

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files a file imports from within `src/` (relative specifiers, resolved to `.ts`/`.tsx` paths). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(join(src, file), 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[1] ?? match[2]!;
    if (!spec.startsWith('.')) continue;
    const base = normalize(join(dirname(file), spec)).replace(/\.js$/, '');
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
    if (target) out.push(target);
  }
  return out;
}

const files = sourceFiles();
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

/** The layer of a file: its top folder under `src/` (`index` for the entry). */
const layerOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : 'index');

/**
 * What each layer may import (docs/design.md, "Layers, one way down"). The simulator shares the
 * pure layers and nothing of the client, the database or the engine, so that it can catch their
 * mistakes.
 */
const LAYERS: Record<string, readonly string[]> = {
  errors: [],
  ids: ['errors'],
  json: ['errors'],
  schema: ['errors', 'ids', 'json'],
  client: ['errors', 'ids', 'json', 'schema'],
  db: ['errors', 'ids', 'json', 'schema'],
  sync: ['errors', 'ids', 'json', 'schema', 'db'],
  mirror: ['errors', 'ids', 'json', 'schema', 'client', 'db', 'sync'],
  simulator: ['errors', 'ids', 'json', 'schema'],
  // Node only (a subpath of its own): the durable file storage, over the mirror's storage interface.
  node: ['errors', 'ids', 'json', 'schema', 'db', 'mirror'],
  // React only (a subpath of its own): the bindings, over the mirror's facade.
  react: ['errors', 'ids', 'json', 'schema', 'db', 'sync', 'mirror'],
  index: ['errors', 'ids', 'json', 'schema', 'client', 'db', 'sync', 'mirror'],
};

/** The concept folder of a file under `src/sync/` (`.` for the files at its root). */
const syncFolderOf = (file: string) => (file.split('/').length > 2 ? file.split('/')[1]! : '.');

/** What each folder of the sync engine may import from the others (src/sync/index.ts). */
const SYNC_FOLDERS: Record<string, readonly string[]> = {
  '.': [],
  records: ['.'],
  outbox: ['.', 'records'],
  conflicts: ['.', 'records', 'outbox'],
  push: ['.', 'records', 'outbox', 'conflicts'],
  pull: ['.', 'records'],
  coordination: ['.'],
  cycle: ['.', 'records', 'outbox', 'conflicts', 'push', 'pull', 'coordination'],
  controller: ['.', 'records', 'outbox', 'conflicts', 'push', 'pull', 'coordination', 'cycle'],
  // Another copy's edits moved into this mirror's outbox, under that copy's lead.
  copies: ['.', 'records', 'outbox', 'coordination'],
  // The pollers of the latest orders of a register, applied by the pull's rules.
  'latest-orders': ['.', 'records', 'pull', 'coordination'],
};

describe('the import graph of src/', () => {
  it('has no circles', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('flows one way down the layers', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const layer = layerOf(file);
      const allowed = LAYERS[layer];
      if (!allowed) {
        wrong.push(`${file}: the layer ${layer} is not listed in this test: say what it may import`);
        continue;
      }
      for (const target of targets) {
        const to = layerOf(target);
        if (to !== layer && !allowed.includes(to)) wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('flows one way between the sync engine folders, and reaches a folder from outside only through its index', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        if (layerOf(target) !== 'sync') continue;
        const to = syncFolderOf(target);
        if (layerOf(file) !== 'sync') {
          if (to !== '.' && !target.endsWith('/index.ts')) wrong.push(`${file} -> ${target} (import ${to}/index.js)`);
          continue;
        }
        const from = syncFolderOf(file);
        const allowed = SYNC_FOLDERS[from];
        if (!allowed) wrong.push(`${file}: the folder sync/${from} is not listed in this test`);
        else if (to !== from && !allowed.includes(to)) wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('imports React and dexie-react-hooks only in the React bindings, so the other entries work without them', () => {
    const wrong: string[] = [];
    for (const file of files) {
      if (layerOf(file) === 'react') continue;
      const text = readFileSync(join(src, file), 'utf8');
      for (const match of text.matchAll(SPECIFIER)) {
        const spec = match[1] ?? match[2]!;
        if (/^(react|react-dom|dexie-react-hooks)(\/|$)/.test(spec)) wrong.push(`${file} -> ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
