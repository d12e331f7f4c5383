import { parseArgs } from 'node:util';

/** What the node-sync example was asked to do. */
export interface NodeSyncOptions {
  /** A real service to mirror; undefined starts a simulator. */
  baseUrl: string | undefined;
  token: string | undefined;
  size: 'tiny' | 'small' | 'medium' | 'large';
  seed: number;
  ordersPerSecond: number;
  /** Print the summary and exit, without the live overview. */
  once: boolean;
  /** Seconds between two overviews. */
  intervalSeconds: number;
  /** Where the mirror is kept between runs (a durable file storage). */
  dataDir: string;
  /** Start from an empty data directory (what was kept is removed first). */
  fresh: boolean;
}

/** Where the mirror is kept by default, below the working directory. */
export const DEFAULT_DATA_DIR = '.node-sync-data';

/** Usage text, printed for `--help` and bad flags. */
export const USAGE = `Usage: npm run example:node -- [options]

Mirrors a tenant into a durable store in a data directory, prints a summary, then a live
overview of the latest orders per register until Ctrl+C.

  --base-url URL          the service's base URL (or env POS_BASE_URL); without it a simulator starts
  --token T               the API token (or env POS_TOKEN, which keeps it out of the process list)
  --size S                simulator size: tiny, small (default), medium, large
  --seed N                simulator seed (default 7)
  --orders-per-second N   how fast the simulator's registers sell (default 1)
  --interval S            seconds between overviews (default 5)
  --data-dir DIR          where the mirror is kept between runs (default ${DEFAULT_DATA_DIR}); a restarted
                          run resumes from it with a delta, and nothing saved is lost to a crash
  --fresh                 start over: the data directory's mirror is removed (once no other run
                          holds it), then a full first sync
  --once                  print the summary and exit
  --help                  this text
`;

/** A bad command line; the message says which flag. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Reads the command line and the environment. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): NodeSyncOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        size: { type: 'string', default: 'small' },
        seed: { type: 'string', default: '7' },
        'orders-per-second': { type: 'string', default: '1' },
        interval: { type: 'string', default: '5' },
        once: { type: 'boolean', default: false },
        'data-dir': { type: 'string', default: DEFAULT_DATA_DIR },
        fresh: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.help) return 'help';
  const baseUrl = parsed['base-url'] ?? env.POS_BASE_URL;
  const token = parsed.token ?? env.POS_TOKEN;
  if (baseUrl !== undefined) {
    if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
    if (!token) throw new UsageError('--base-url needs a token: --token T or env POS_TOKEN');
  }
  const size = parsed.size as NodeSyncOptions['size'];
  if (!['tiny', 'small', 'medium', 'large'].includes(size)) throw new UsageError('--size must be tiny, small, medium or large');
  const seed = Number(parsed.seed);
  if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
  const ordersPerSecond = Number(parsed['orders-per-second']);
  if (!Number.isFinite(ordersPerSecond) || ordersPerSecond < 0) throw new UsageError('--orders-per-second must be a number >= 0');
  const intervalSeconds = Number(parsed.interval);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds <= 0) throw new UsageError('--interval must be a number of seconds > 0');
  const dataDir = parsed['data-dir'];
  if (dataDir.trim() === '') throw new UsageError('--data-dir must name a directory');
  return { baseUrl, token, size, seed, ordersPerSecond, once: parsed.once, intervalSeconds, dataDir, fresh: parsed.fresh };
}
