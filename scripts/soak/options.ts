/**
 * The command line of `npm run soak`, read and checked. Flags go through npm after `--`:
 * `npm run soak -- --seed 7 --minutes 5 --devices 4`.
 */
import { parseArgs } from 'node:util';

/** What one soak run is asked to do. */
export interface SoakOptions {
  /** Seeds the operation sequence, the fault plan and the simulator's tenant and faults. */
  seed: number;
  /** How long operations are issued before everything settles and the checks run. */
  minutes: number;
  /** How many devices (mirrors, each with its own database) edit and sync. */
  devices: number;
}

/** The flags' defaults. */
export const SOAK_DEFAULTS: Readonly<SoakOptions> = { seed: 1, minutes: 1, devices: 3 };

/** Most devices one run drives (each is a mirror with its own database in this process). */
export const MAX_DEVICES = 16;

/** Longest run accepted, in minutes (a day). */
export const MAX_MINUTES = 24 * 60;

/** Usage text, printed for `--help` and after a bad flag. */
export const USAGE = `Usage: npm run soak -- [--seed N] [--minutes M] [--devices D]

Runs devices (mirrors, each with its own database) against the simulator over HTTP on 127.0.0.1
for M minutes: random creates, edits and deletes, restarts in the middle of a sync or a push, the
registers editing and selling meanwhile, faults (500, 429, dropped connections, cut bodies,
latency) and a token replaced mid-run. Then faults go off, every device syncs until settled, and
the run checks that nothing was lost or duplicated and every device equals the server.

  --seed N      seed of the operations, the fault plan and the simulator (default ${SOAK_DEFAULTS.seed}); the same
                seed gives the same operation sequence
  --minutes M   how long to issue operations, a decimal number (default ${SOAK_DEFAULTS.minutes}; at most ${MAX_MINUTES})
  --devices D   devices, 1 to ${MAX_DEVICES} (default ${SOAK_DEFAULTS.devices})
  --help        this text

Exits 0 when every check passed, 1 on a violation (the report says how to reproduce it), 2 on a
bad flag.
`;

/** A bad command line; the message names the flag. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Reads the command line; `'help'` when `--help` was given. */
export function readSoakOptions(argv: readonly string[]): SoakOptions | 'help' {
  const flags = readSoakFlags(argv, { seed: SOAK_DEFAULTS.seed, minutes: SOAK_DEFAULTS.minutes, devices: SOAK_DEFAULTS.devices });
  if (flags === 'help') return 'help';
  const { seed, minutes, values } = flags;
  const devices = numberFlag(values.devices, '--devices');
  if (!Number.isInteger(devices) || devices < 1 || devices > MAX_DEVICES) throw new UsageError(`--devices must be a whole number from 1 to ${MAX_DEVICES}, got ${JSON.stringify(values.devices)}`);
  return { seed, minutes, devices };
}

/** The command that repeats a run with these options. */
export function soakCommand(options: SoakOptions): string {
  return `npm run soak -- --seed ${options.seed} --minutes ${options.minutes} --devices ${options.devices}`;
}

/**
 * Reads a soak's command line: every flag takes a value (its default is given), `--help` and the
 * `switches` none (each is true when given). An unknown flag, a positional or a bad
 * `--seed`/`--minutes` is a UsageError naming it.
 */
export function readSoakFlags<F extends string, S extends string = never>(
  argv: readonly string[],
  defaults: Record<F | 'seed' | 'minutes', string | number>,
  switches: readonly S[] = [],
): { seed: number; minutes: number; values: Record<F, string>; switches: Record<S, boolean> } | 'help' {
  const options: Record<string, { type: 'string'; default: string } | { type: 'boolean'; default: boolean }> = { help: { type: 'boolean', default: false } };
  for (const [name, value] of Object.entries(defaults)) options[name] = { type: 'string', default: String(value) };
  for (const name of switches) options[name] = { type: 'boolean', default: false };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return 'help';
  const strings = values as Record<F | 'seed' | 'minutes', string>;
  const given = Object.fromEntries(switches.map((name) => [name, values[name] === true])) as Record<S, boolean>;
  return { ...seedAndMinutes(strings), values: strings, switches: given };
}

/** `--seed` and `--minutes` as read by `parseArgs`, checked (a UsageError naming the flag), as every soak takes them. */
export function seedAndMinutes(values: { seed: string; minutes: string }): { seed: number; minutes: number } {
  const seed = numberFlag(values.seed, '--seed');
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UsageError(`--seed must be a whole number >= 0, got ${JSON.stringify(values.seed)}`);
  const minutes = numberFlag(values.minutes, '--minutes');
  if (!(minutes > 0 && minutes <= MAX_MINUTES)) throw new UsageError(`--minutes must be a number above 0 and at most ${MAX_MINUTES}, got ${JSON.stringify(values.minutes)}`);
  return { seed, minutes };
}

/** A flag's text as a number (an empty or non-numeric text is a UsageError naming the flag). */
export function numberFlag(text: string, flag: string): number {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value)) throw new UsageError(`${flag} must be a number, got ${JSON.stringify(text)}`);
  return value;
}
