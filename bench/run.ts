/**
 * Runs every benchmark in `bench/` (files named `*.bench.ts`), one child process each so that
 * one benchmark's heap and JIT state cannot colour the next. `npm run bench -- json` runs only
 * the benchmarks whose file name contains "json".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  // LARGE=1 holds a ~1M-record database in fake-indexeddb, in this heap, beside a copy of its rows.
  // The browser benchmark's WebKit profile speaks to MiniBrowser over a WebSocket: Node 20 has one behind a flag.
  const websocket = typeof WebSocket === 'undefined' ? ['--experimental-websocket'] : [];
  const run = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', ...websocket, '--import', 'tsx', join(here, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
if (failed > 0) {
  console.error(`${failed} benchmark(s) failed`);
  process.exit(1);
}
