/**
 * `npm run sim -- --port 8787 --size small ...`: starts a simulator, prints its base URL and token,
 * serves until SIGINT or SIGTERM, then closes cleanly. Bad flags: a message and exit code 2.
 */
import { isValidationError } from '../errors/index.js';
import { CliUsageError, USAGE, parseCliArgs } from './cli-args.js';
import { createSimulator } from './create-simulator.js';

async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof CliUsageError) return usage(error.message);
    throw error;
  }
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let sim;
  try {
    sim = await createSimulator(command.options);
  } catch (error) {
    if (isValidationError(error)) return usage(error.message);
    throw error;
  }
  process.stdout.write(`pos-cloud simulator listening\nbase URL: ${sim.baseUrl}\ntoken:    ${sim.token}\n`);
  const started = sim;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await started.close();
  process.stdout.write('simulator stopped\n');
  return 0;
}

function usage(message: string): number {
  process.stderr.write(`sim: ${message}\n\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
