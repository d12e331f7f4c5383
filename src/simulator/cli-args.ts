/**
 * Command-line flags of `npm run sim`, parsed into simulator options. Every flag is checked;
 * a bad one is a {@link CliUsageError} whose message says which and why (the CLI exits 2).
 */
import { parseArgs } from 'node:util';
import { SIZE_PRESETS, type SizeOption } from './size.js';
import type { SimulatorOptions } from './options.js';
import type { CollectionName } from '../schema/collections.js';

/** A flag the CLI cannot use. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/** Usage text. */
export const USAGE = `Usage: npm run sim -- [options]
  --port N               port (0 = any free one)           default 8787
  --host ADDR            address to listen on              default 127.0.0.1
  --size S               tiny | small | medium | large, or counts like orders=5000,products=200   default small
  --token T              API token                         default derived from the seed
  --seed N               seed of data and faults           default 1
  --base-path P          {base_url} path prefix            default /api/v1
  --clock-start MS|now   the simulator clock's start (ms)  default 2026-01-01T00:00:00Z
  --error-rate R         share of requests answered 500 (0..1)
  --rate-limit N         requests per second before 429
  --rate-limit-burst N   token bucket size
  --extra-429-rate R     share of random 429s (0..1)
  --latency MS           delay before every answer
  --drop-rate R          share of dropped connections (0..1)
  --truncate-rate R      share of truncated bodies (0..1)
  --id-start-inclusive   repeat the id_start record in the next page
  --ids-as-strings       ids as JSON strings
  --loose-wire           numbers as strings, booleans as 0/1 (a loosely typed backend)
  --post-response M      records | ids | empty
  --legacy-paths-only    serve only the /list and orders/latest forms
  --orders-over-cap M    error | truncate (orders pages over 6 MB)
  --missing-collections L  collections this tenant lacks, comma-separated (404 everywhere)
  --failing-collections L  collections whose list answers 500, comma-separated
  --activity N           registers sell N orders per second
  --help                 this text`;

/** Parsed command line: options, or a request for help. */
export type CliCommand = { help: true } | { help: false; options: SimulatorOptions };

/** Parses argv (without node and the script). Throws CliUsageError. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        size: { type: 'string' },
        token: { type: 'string' },
        seed: { type: 'string' },
        'base-path': { type: 'string' },
        'clock-start': { type: 'string' },
        'error-rate': { type: 'string' },
        'rate-limit': { type: 'string' },
        'rate-limit-burst': { type: 'string' },
        'extra-429-rate': { type: 'string' },
        latency: { type: 'string' },
        'drop-rate': { type: 'string' },
        'truncate-rate': { type: 'string' },
        'id-start-inclusive': { type: 'boolean' },
        'ids-as-strings': { type: 'boolean' },
        'loose-wire': { type: 'boolean' },
        'post-response': { type: 'string' },
        'legacy-paths-only': { type: 'boolean' },
        'orders-over-cap': { type: 'string' },
        'missing-collections': { type: 'string' },
        'failing-collections': { type: 'string' },
        activity: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const num = (name: string, check: (n: number) => boolean, what: string): number | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    const n = raw.trim() === '' ? NaN : Number(raw);
    if (!Number.isFinite(n) || !check(n)) throw new CliUsageError(`--${name}: expected ${what}, got "${raw}"`);
    return n;
  };
  const rate = (name: string): number | undefined => num(name, (n) => n >= 0 && n <= 1, 'a share between 0 and 1');
  const whole = (name: string, min = 0): number | undefined => num(name, (n) => Number.isInteger(n) && n >= min, `a whole number >= ${min}`);
  const options: SimulatorOptions = {
    port: whole('port') ?? 8787,
    size: parseSize(str('size') ?? 'small'),
    seed: num('seed', Number.isSafeInteger, 'an integer') ?? 1,
  };
  const host = str('host');
  if (host !== undefined) options.host = host;
  const token = str('token');
  if (token !== undefined) options.token = token;
  const basePath = str('base-path');
  if (basePath !== undefined) options.basePath = basePath;
  const clockStart = str('clock-start');
  if (clockStart !== undefined) options.clock = { start: clockStart === 'now' ? Date.now() : (whole('clock-start') as number) };
  const faults = {
    errorRate: rate('error-rate'),
    rateLimitPerSecond: num('rate-limit', (n) => n > 0, 'a number of requests per second > 0'),
    rateLimitBurst: whole('rate-limit-burst', 1),
    extra429Rate: rate('extra-429-rate'),
    latencyMs: whole('latency'),
    dropRate: rate('drop-rate'),
    truncateRate: rate('truncate-rate'),
  };
  options.faults = Object.fromEntries(Object.entries(faults).filter(([, v]) => v !== undefined));
  if (values['id-start-inclusive']) options.idStartInclusive = true;
  if (values['ids-as-strings']) options.idsAsStrings = true;
  if (values['loose-wire']) options.looseWire = true;
  if (values['legacy-paths-only']) options.legacyPathsOnly = true;
  const postResponse = str('post-response');
  if (postResponse !== undefined) {
    if (postResponse !== 'records' && postResponse !== 'ids' && postResponse !== 'empty') throw new CliUsageError(`--post-response: expected records, ids or empty, got "${postResponse}"`);
    options.postResponse = postResponse;
  }
  const overCap = str('orders-over-cap');
  if (overCap !== undefined) {
    if (overCap !== 'error' && overCap !== 'truncate') throw new CliUsageError(`--orders-over-cap: expected error or truncate, got "${overCap}"`);
    options.ordersOverCap = overCap;
  }
  const missing = str('missing-collections');
  if (missing !== undefined) options.missingCollections = nameList(missing) as CollectionName[];
  const failing = str('failing-collections');
  if (failing !== undefined) options.failingCollections = nameList(failing) as CollectionName[];
  const activity = num('activity', (n) => n > 0 && n <= 1000, 'orders per second in (0, 1000]');
  if (activity !== undefined) options.activity = { ordersPerSecond: activity };
  return { help: false, options };
}

/** A comma-separated list of names; the simulator's options check each one (a ValidationError names a wrong one). */
function nameList(raw: string): string[] {
  return raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

function parseSize(raw: string): SizeOption {
  if (raw in SIZE_PRESETS) return raw as SizeOption;
  const counts: Record<string, number> = {};
  for (const part of raw.split(',')) {
    const match = /^([a-z_]+)=([0-9]+)$/.exec(part.trim());
    if (!match) throw new CliUsageError(`--size: expected tiny, small, medium, large or counts like orders=5000,products=200, got "${raw}"`);
    counts[match[1] as string] = Number(match[2]);
  }
  return counts;
}
