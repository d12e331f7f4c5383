import { resolve } from 'node:path';
import type { InlineConfig } from 'vite';
import { packageAliases } from '../../scripts/package-aliases.js';

/**
 * The Vite config of an example web app in `root`: relative asset URLs (the app works under any
 * path), its `public/` folder, the shared service worker built as `sw.js` beside `index.html`
 * so that its scope covers the whole app, and the package's names resolved to this repository's
 * sources (an app of your own gets them from its `node_modules`).
 */
export function exampleConfig(root: string): InlineConfig {
  return {
    root,
    base: './',
    configFile: false,
    publicDir: resolve(root, 'public'),
    logLevel: 'warn',
    resolve: { alias: packageAliases() },
    build: {
      outDir: resolve(root, 'dist'),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      rolldownOptions: {
        input: { index: resolve(root, 'index.html'), sw: resolve(root, '../shared/service-worker.ts') },
        output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
      },
    },
  };
}
