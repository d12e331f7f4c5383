/**
 * `npm run soak:browser -- [--seed N] [--minutes M] [--tabs T] [--engine E] [--storage-kills | --day]`:
 * runs a browser soak and prints its report. Exits 0 when every check passed (and a day at the
 * register met its aims), 1 on a violation, a missed aim (the report names the seed and the
 * command that repeats the run) or a run that could not finish (a page that stopped answering),
 * 2 on a bad command line.
 */
import { spawn } from 'node:child_process';
import { browserSoakCommand, readBrowserSoakOptions, UsageError, USAGE } from './options.js';
import { formatBrowserReport } from './report.js';
import { runBrowserSoak } from './run-browser-soak.js';

let options;
try {
  options = readBrowserSoakOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`npm run soak:browser: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}

// Storage kills drive WebKit through its inspector, over a WebSocket: Node 20 has one behind a flag.
if (options.storageKills && typeof WebSocket === 'undefined') {
  const child = spawn(process.execPath, ['--experimental-websocket', ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], { stdio: 'inherit' });
  // A run stopped from outside stops the process that does the work too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  process.exit(code ?? 1);
}

process.stdout.write(`${browserSoakCommand(options)}\n`);
let result;
try {
  result = await runBrowserSoak(options, { progress: (line) => process.stdout.write(`  ${line}\n`) });
} catch (error) {
  // The run could not finish (a page that stopped answering, say): a failure, with the command that repeats it.
  process.stdout.write(`FAILED, the run did not reach its checks: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\nrepeat with: ${browserSoakCommand(options)}\n`);
  process.exit(1);
}
process.stdout.write(formatBrowserReport(result));
process.exit(result.check.violations.length === 0 && !result.day?.summary.missed ? 0 : 1);
