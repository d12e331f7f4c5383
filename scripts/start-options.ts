/**
 * The command line of `npm start` (and `npm run example:inventory`), read and checked. Flags go
 * through npm after `--`: `npm start -- --port 0`.
 */
import { parseArgs } from 'node:util';
import { WEB_EXAMPLES, type WebExample } from './build-example.js';

/** What `npm start` was asked to do. */
export interface StartOptions {
  app: WebExample;
  port: number;
  /** A real service to serve the app against (no simulator); undefined starts a simulator. */
  baseUrl: string | undefined;
  /** Forward the real service's API through the app's server (same origin: no CORS needed). */
  proxy: boolean;
  size: 'tiny' | 'small' | 'medium';
  seed: number;
  ordersPerSecond: number;
}

/** A bad command line; the message names the flag. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The command that runs this script with other flags, as the person typed it: `npm start`, or
 * `npm run example:inventory`, with `--` before the flags (npm keeps flags before `--` for itself).
 */
export function npmCommand(flags: string, lifecycleEvent: string | undefined): string {
  const script = lifecycleEvent === undefined || lifecycleEvent === 'start' ? 'npm start' : `npm run ${lifecycleEvent}`;
  return `${script} -- ${flags}`;
}

/** Reads the command line. */
export function readStartOptions(argv: string[]): StartOptions {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        app: { type: 'string', default: 'pos-companion' },
        port: { type: 'string', default: '5173' },
        'base-url': { type: 'string' },
        proxy: { type: 'boolean', default: false },
        size: { type: 'string', default: 'small' },
        seed: { type: 'string', default: '7' },
        'orders-per-second': { type: 'string', default: '0.5' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const app = values.app as WebExample;
  if (!WEB_EXAMPLES.includes(app)) throw new UsageError(`--app must be one of ${WEB_EXAMPLES.join(', ')}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number (0: any free port)');
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be the service's http(s) address, got ${JSON.stringify(baseUrl)}`);
  if (values.proxy && baseUrl === undefined) throw new UsageError('--proxy needs --base-url (the simulator is always proxied)');
  const size = values.size as StartOptions['size'];
  if (!['tiny', 'small', 'medium'].includes(size)) throw new UsageError('--size must be tiny, small or medium');
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
  const ordersPerSecond = Number(values['orders-per-second']);
  if (!Number.isFinite(ordersPerSecond) || ordersPerSecond < 0) throw new UsageError('--orders-per-second must be a number >= 0');
  return { app, port, baseUrl: baseUrl?.replace(/\/+$/, ''), proxy: values.proxy, size, seed, ordersPerSecond };
}
