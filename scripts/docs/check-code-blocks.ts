/**
 * `npm run check:docs`: every ```ts and ```tsx block of README.md and docs/ (the generated API
 * reference aside) type-checked, strict, against the package's public types, each block a module of
 * its own. The package's entries (`pos-cloud-mirror`, `/react`, `/node`, `/simulator`) map to their
 * sources in src/ through `paths`. A block marked `<!-- partial -->` is parsed only. Exits 1 with
 * each error at its Markdown file and line.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { typeScriptBlocks, type CodeBlock } from './code-blocks.js';
import { ENTRY_SOURCES } from './entry-sources.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');
const outDir = join(repo, 'test-output', 'docs-blocks');


/** The Markdown files whose blocks are checked: the README and docs/, the generated reference aside. */
async function markdownFiles(): Promise<string[]> {
  const files = ['README.md', 'CONTRIBUTING.md'];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(join(repo, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join('docs', 'api')) await walk(path);
      } else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  await walk('docs');
  return files;
}

interface Located {
  file: string;
  block: CodeBlock;
  path: string;
}

function compilerOptions(): ts.CompilerOptions {
  const paths = Object.fromEntries(Object.entries(ENTRY_SOURCES).map(([name, source]) => [name, [join(repo, source)]]));
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    {
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      types: ['node'],
      typeRoots: [join(repo, 'node_modules', '@types')],
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitReturns: true,
      isolatedModules: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      jsx: 'react-jsx',
      paths,
    },
    outDir,
  );
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, host));
  return options;
}

const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => repo,
  getNewLine: () => '\n',
};

/** Where in the Markdown a diagnostic of a block's file points. */
function describe(diagnostic: ts.Diagnostic, located: Located): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const at = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
  const line = located.block.line + (at?.line ?? 0);
  return `${located.file}:${line}${at ? `:${at.character + 1}` : ''}: ${message}`;
}

async function main(): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const checked: Located[] = [];
  const problems: string[] = [];
  let partial = 0;
  for (const file of await markdownFiles()) {
    const blocks = typeScriptBlocks(await readFile(join(repo, file), 'utf8'));
    for (const block of blocks) {
      const path = join(outDir, `${file.replace(/[/\\.]/g, '_')}_${block.line}.${block.lang}`);
      const located = { file, block, path };
      if (block.partial) {
        partial++;
        const source = ts.createSourceFile(path, block.code, ts.ScriptTarget.ES2022, false, block.lang === 'tsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
        const parsed = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
        for (const diagnostic of parsed) problems.push(describe(diagnostic, located));
        continue;
      }
      // `export {}` makes every block a module of its own, as a file of an app is.
      await writeFile(path, `${block.code}\nexport {};\n`);
      checked.push(located);
    }
  }
  const program = ts.createProgram(checked.map((c) => c.path), compilerOptions());
  const byPath = new Map(checked.map((c) => [resolve(c.path), c]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const located = diagnostic.file ? byPath.get(resolve(diagnostic.file.fileName)) : undefined;
    if (located) problems.push(describe(diagnostic, located));
    else if (!diagnostic.file) problems.push(`(program): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  }
  const files = new Set([...checked.map((c) => c.file)]).size;
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n\ncheck:docs: ${problems.length} problem(s) in the code blocks (a deliberately partial block: see CONTRIBUTING.md)\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`check:docs: ${checked.length} blocks type-checked in ${files} files, ${partial} partial blocks parsed (${relative(repo, outDir)})\n`);
}

await main();
