import { defineConfig } from 'vite';
import { exampleConfig } from '../shared/vite-config.js';

/** `npx vite build examples/pos-companion` builds the app into `examples/pos-companion/dist`. */
export default defineConfig(exampleConfig(import.meta.dirname));
