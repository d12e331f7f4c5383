/**
 * `npm run soak -- [--seed N] [--minutes M] [--devices D]`: runs a soak and prints its report.
 * Exits 0 when every check passed, 1 on a violation (the report names the seed and the command
 * that repeats the run), 2 on a bad command line.
 */
import { readSoakOptions, soakCommand, UsageError, USAGE } from './options.js';
import { formatReport } from './report.js';
import { runSoak } from './run-soak.js';

let options;
try {
  options = readSoakOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`npm run soak: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}

process.stdout.write(`${soakCommand(options)}\n`);
const result = await runSoak(options, { progress: (line) => process.stdout.write(`  ${line}\n`) });
process.stdout.write(formatReport(result));
process.exit(result.check.violations.length === 0 ? 0 : 1);
