/**
 * `npm start`: starts the simulator (a small shop whose registers keep selling), builds the
 * Shop companion app, serves it with the API proxied on the same origin, and prints the address
 * to open. `--app inventory-count` serves the stock count app instead (`npm run example:inventory`).
 *
 * `--base-url URL` serves the app against a real service instead, without a simulator: the app
 * calls the service itself (which must allow cross-origin requests from the app's address), or,
 * with `--proxy`, through this server. The app asks for the API token; it is never served.
 *
 * What goes wrong in the app's pages (uncaught errors, unhandled rejections, `console.error`) is
 * printed here, on stderr, as `page error: …`, so the terminal that runs the app shows it too.
 *
 * Options (after `--`: `npm start -- --port 0`): --app pos-companion|inventory-count,
 * --port N (default 5173; 0 any free port), --base-url URL, --proxy, --size tiny|small|medium,
 * --seed N, --orders-per-second N (default 0.5; 0 stops the selling).
 */
import { createSimulator } from '../src/simulator/index.js';
import { createAppServer, type AppServer } from './app-server.js';
import type { PageError } from './engines/page-errors.js';
import { buildExample, exampleOutDir, type WebExample } from './build-example.js';
import { UsageError, npmCommand, readStartOptions, type StartOptions } from './start-options.js';

const TITLES: Record<WebExample, string> = { 'pos-companion': 'Shop companion', 'inventory-count': 'Stock count' };

function fail(message: string): never {
  process.stderr.write(`start: ${message}\n`);
  process.exit(2);
}

let options: StartOptions;
try {
  options = readStartOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  fail(error.message);
}
const { app, port, baseUrl, proxy, size, seed, ordersPerSecond } = options;

/** One line per error a page of the app reports. */
function printPageError(error: PageError): void {
  process.stderr.write(`page error: ${error.kind}: ${error.message} (${error.url})\n`);
}

/** Serves the app on the port asked for, or says which command picks a free one. */
async function serve(server: Parameters<typeof createAppServer>[0]): Promise<AppServer> {
  return createAppServer({ ...server, port, pageErrors: printPageError }).catch((error: NodeJS.ErrnoException) =>
    fail(error.code === 'EADDRINUSE' ? `port ${port} is in use; try ${npmCommand('--port 0', process.env.npm_lifecycle_event)}` : error.message),
  );
}

const root = exampleOutDir(app);
let sim: Awaited<ReturnType<typeof createSimulator>> | undefined;
let server: AppServer;
let lines: string[];
if (baseUrl === undefined) {
  process.stdout.write(`Starting the simulator (${size}) and building ${TITLES[app]}…\n`);
  // The simulator's clock runs from now, so the app's "today" and sale times read naturally.
  sim = await createSimulator({ port: 0, size, seed, clock: { start: Date.now() }, activity: ordersPerSecond > 0 ? { ordersPerSecond } : false });
  // A tenant per run keeps this run's data apart from an earlier run's in the browser.
  server = await serve({ root, apiBaseUrl: sim.baseUrl, config: { token: sim.token, tenant: `simulator-${Date.now().toString(36)}` } });
  lines = [
    `  API (proxied):   ${server.apiBaseUrl}  → simulator ${sim.baseUrl}`,
    `  Registers sell ${ordersPerSecond} order(s) per second. The app gets the simulator's token from /config.json.`,
    '  Open the address in two tabs to see one of them sync for both. Ctrl+C stops.',
  ];
} else {
  process.stdout.write(`Building ${TITLES[app]} for ${baseUrl}…\n`);
  server = await serve(proxy ? { root, apiBaseUrl: baseUrl, config: {} } : { root, config: { baseUrl } });
  const origin = new URL(server.url).origin;
  lines = proxy
    ? [`  API (proxied):   ${server.apiBaseUrl}  → ${baseUrl}`, '  The app asks for the API token; it stays in the browser tab. Ctrl+C stops.']
    : [
        `  API:             ${baseUrl} (called by the browser: the service must allow cross-origin requests from ${origin};`,
        `                   if it does not, add --proxy)`,
        '  The app asks for the API token; it stays in the browser tab. Ctrl+C stops.',
      ];
}
await buildExample(app, root);
process.stdout.write(['', `  ${TITLES[app]}:  ${server.url}`, ...lines, ''].join('\n') + '\n');

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  await sim?.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
