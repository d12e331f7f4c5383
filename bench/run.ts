/**
 * Runs every benchmark in `bench/` (files named `*.bench.ts`), one child process each so that
 * one benchmark's heap and JIT state cannot colour the next. `npm run bench -- json` runs only
 * the benchmarks whose file name contains "json".
 *
 * `npm run bench -- --smoke` (filters work alongside: `npm run bench -- --smoke json`) is a smoke
 * run, the one CI makes: every benchmark gets `BENCH_SMOKE=1` and runs its smallest input, one
 * round, every engine and candidate it normally runs (see `smoke.ts`); its figures are not to be
 * quoted, only its finishing counts.
 *
 * A benchmark fails when it exits non-zero, prints no figure (a number with a unit of time, rate
 * or ratio: `ms`, `s`, `µs`, `records/s`, `MB/s`, `x`) or prints NaN or Infinity where a figure
 * should be; the run then ends non-zero and names it. Each benchmark's wall time is printed at
 * the end.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMOKE_ENV } from './smoke.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const unknown = args.filter((a) => a.startsWith('--') && a !== '--smoke');
if (unknown.length > 0) throw new Error(`bench: unknown option ${unknown.join(', ')} (known: --smoke)`);
const filters = args.filter((a) => !a.startsWith('--'));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) throw new Error(`bench: no benchmark's file name contains ${filters.map((f) => `"${f}"`).join(' or ')}`);

/** A measured figure: a number followed by a unit of time, rate or ratio. */
const FIGURE = /\d(?:\.\d+)?\s?(?:ms|s|µs|us\/record|records\/s|MB\/s|x)\b/;
/** A figure computed from nothing (an empty list of rounds, a division by zero). */
const BROKEN_FIGURE = /\b(?:NaN|-?Infinity)\b/;

const results: { file: string; seconds: number; failure: string | undefined }[] = [];
for (const file of files) {
  console.log(`\n== ${file}${smoke ? ' (smoke run)' : ''}`);
  const started = performance.now();
  const { code, output } = await runBenchmark(file);
  const seconds = (performance.now() - started) / 1000;
  results.push({ file, seconds, failure: failureOf(code, output) });
}

console.log(`\n== ${smoke ? 'smoke run' : 'run'}: time per benchmark`);
for (const { file, seconds, failure } of results) console.log(`  ${file.padEnd(36)} ${seconds.toFixed(0).padStart(5)} s${failure ? `   FAILED: ${failure}` : ''}`);
console.log(`  ${'total'.padEnd(36)} ${results.reduce((s, r) => s + r.seconds, 0).toFixed(0).padStart(5)} s`);
const failed = results.filter((r) => r.failure);
if (failed.length > 0) {
  console.error(`${failed.length} benchmark(s) failed: ${failed.map((r) => `${r.file} (${r.failure})`).join(', ')}`);
  process.exit(1);
}

/** Why a benchmark that ended with `code` after printing `output` failed, or undefined if it did not. */
function failureOf(code: number | string, output: string): string | undefined {
  if (code !== 0) return `exited with ${code}`;
  if (!FIGURE.test(output)) return 'printed no figures';
  if (BROKEN_FIGURE.test(output)) return 'printed NaN or Infinity';
  return undefined;
}

/**
 * Runs one benchmark with its output passed through and kept; resolves with its exit code (a
 * signal counts as a failure) and what it printed on stdout.
 */
async function runBenchmark(file: string): Promise<{ code: number | string; output: string }> {
  // LARGE=1 holds a ~1M-record database in fake-indexeddb, in this heap, beside a copy of its rows.
  // The browser benchmark's WebKit profile speaks to MiniBrowser over a WebSocket: Node 20 has one behind a flag.
  const websocket = typeof WebSocket === 'undefined' ? ['--experimental-websocket'] : [];
  const env = smoke ? { ...process.env, [SMOKE_ENV]: '1' } : process.env;
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', ...websocket, '--import', 'tsx', join(here, file)], {
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => child.stdout.once('close', resolve));
  const exited = new Promise<number | string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const code = await exited;
  // A process the benchmark left behind (a browser) may hold the pipe open: what the benchmark
  // printed is in the pipe by now, so it is read for a moment, not until that process ends.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
  child.stdout.destroy();
  return { code, output };
}
