import { defineConfig } from 'vite';
import { exampleConfig } from '../shared/vite-config.js';

/** `npx vite build examples/inventory-count` builds the app into `examples/inventory-count/dist`. */
export default defineConfig(exampleConfig(import.meta.dirname));
