import { builtinModules } from 'node:module';
import { defineConfig } from 'vitest/config';
import { packageAliases } from './scripts/package-aliases.js';

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Library build of the entries (`.`, `./simulator`, `./node` and `./react`) as ES modules; dependencies and Node
 * built-ins stay external. Type declarations are emitted by `tsc -p tsconfig.build.json`.
 */
export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: { index: 'src/index.ts', simulator: 'src/simulator/index.ts', node: 'src/node/index.ts', react: 'src/react/index.ts' },
      formats: ['es'],
    },
    rollupOptions: {
      external: (id) =>
        nodeBuiltins.has(id) || /^(dexie|dexie-react-hooks|ky|json-bigint|zod|fake-indexeddb|react|react-dom)(\/|$)/.test(id),
    },
  },
  // The examples the tests run import the package by its name: resolved to the sources here.
  resolve: { alias: packageAliases() },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A WebKit test drives MiniBrowser's inspector over a WebSocket, which Node 20 has only behind a flag.
    execArgv: typeof WebSocket === 'undefined' ? ['--experimental-websocket'] : [],
    // Names the browser engines that are not installed, whose suites are skipped (test/engines/).
    globalSetup: ['test/engines/report-missing-engines.ts'],
    // The public surface's types (`test/types/*.test-d.ts`): checked by the compiler in the same run.
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
