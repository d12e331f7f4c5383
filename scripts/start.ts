/**
 * `npm start`: starts the simulator (a small shop whose registers keep selling), builds the
 * Shop companion app, serves it with the API proxied on the same origin, and prints the address
 * to open. `--app inventory-count` serves the stock count app instead (`npm run example:inventory`).
 *
 * Options: --app pos-companion|inventory-count, --port N (default 5173), --size tiny|small|medium,
 * --seed N, --orders-per-second N (default 0.5; 0 stops the selling).
 */
import { parseArgs } from 'node:util';
import { createSimulator } from '../src/simulator/index.js';
import { createAppServer } from './app-server.js';
import { buildExample, WEB_EXAMPLES, type WebExample } from './build-example.js';

const TITLES: Record<WebExample, string> = { 'pos-companion': 'Shop companion', 'inventory-count': 'Stock count' };

function fail(message: string): never {
  process.stderr.write(`start: ${message}\n`);
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        app: { type: 'string', default: 'pos-companion' },
        port: { type: 'string', default: '5173' },
        size: { type: 'string', default: 'small' },
        seed: { type: 'string', default: '7' },
        'orders-per-second': { type: 'string', default: '0.5' },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();

const app = values.app as WebExample;
if (!WEB_EXAMPLES.includes(app)) fail(`--app must be one of ${WEB_EXAMPLES.join(', ')}`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number');
const size = values.size as 'tiny' | 'small' | 'medium';
if (!['tiny', 'small', 'medium'].includes(size)) fail('--size must be tiny, small or medium');
const seed = Number(values.seed);
if (!Number.isInteger(seed)) fail('--seed must be an integer');
const ordersPerSecond = Number(values['orders-per-second']);
if (!Number.isFinite(ordersPerSecond) || ordersPerSecond < 0) fail('--orders-per-second must be a number >= 0');

process.stdout.write(`Starting the simulator (${size}) and building ${TITLES[app]}…\n`);
// The simulator's clock runs from now, so the app's "today" and sale times read naturally.
const sim = await createSimulator({ port: 0, size, seed, clock: { start: Date.now() }, activity: ordersPerSecond > 0 ? { ordersPerSecond } : false });
const root = await buildExample(app);
// A tenant per run keeps this run's data apart from an earlier run's in the browser.
const server = await createAppServer({
  root,
  apiBaseUrl: sim.baseUrl,
  config: { token: sim.token, tenant: `simulator-${Date.now().toString(36)}` },
  port,
}).catch((error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? `port ${port} is in use; try --port 0` : error.message));

process.stdout.write(
  [
    '',
    `  ${TITLES[app]}:  ${server.url}`,
    `  API (proxied):   ${server.apiBaseUrl}  → simulator ${sim.baseUrl}`,
    `  Registers sell ${ordersPerSecond} order(s) per second. The app gets the simulator's token from /config.json.`,
    '  Open the address in two tabs to see one of them sync for both. Ctrl+C stops.',
    '',
  ].join('\n') + '\n',
);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
