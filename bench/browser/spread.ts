/**
 * The spread of the browser benchmark's figures over several runs: reads the JSON files runs wrote
 * (`test-output/bench-browser/browser-*.json`) and prints, per engine and figure, each run's value,
 * the range and the median.
 *
 *   node --import tsx bench/browser/spread.ts test-output/bench-browser/browser-*.json
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { median, range } from '../stats.js';
import { headline, type EngineFigures } from './figures.js';

/** A run as written by `browser.bench.ts`. */
interface RunFile {
  startedAt: string;
  load: { start: number[]; end: number[] };
  engines: EngineFigures[];
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: spread.ts FILE... (the JSON files of browser benchmark runs)');
  process.exit(2);
}
const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as RunFile);
for (const run of runs) console.log(`run ${run.startedAt}: load average ${run.load.start[0]!.toFixed(1)} at the start, ${run.load.end[0]!.toFixed(1)} at the end`);

const engines = [...new Set(runs.flatMap((r) => r.engines.map((e) => e.engine)))];
for (const engine of engines) {
  const inRuns = runs.map((r) => r.engines.find((e) => e.engine === engine)).filter((e): e is EngineFigures => e !== undefined);
  console.log(`\n${inRuns[0]!.version}: ${inRuns.length} run(s)`);
  const figures = inRuns.map(headline);
  const names = [...new Set(figures.flatMap((f) => Object.keys(f)))];
  for (const name of names) {
    const values = figures.map((f) => f[name]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) {
      console.log(`  ${name.padEnd(52)} n/a`);
      continue;
    }
    const { min, max } = range(values);
    const digits = max >= 100 ? 0 : 2;
    const show = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    console.log(`  ${name.padEnd(52)} ${show(min)}–${show(max)} (median ${show(median(values))}; runs: ${values.map(show).join(', ')})`);
  }
  for (const note of new Set(inRuns.flatMap((e) => e.notes))) console.log(`  note: ${note}`);
}
