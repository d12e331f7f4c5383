/**
 * A small static server for a built example app that can also proxy the service's API, so the
 * browser sees one origin (no CORS needed) and the app can use a relative base URL.
 *
 * - `GET /config.json`: `{ baseUrl, token, tenant }` for the app to connect by itself (dev only:
 *   it hands out the simulator's token; never serve a real token this way). Without a token the
 *   app asks for one: `npm start -- --base-url URL` serves a real service's address this way.
 * - Anything under the proxied API's base path (e.g. `/api/v1/...`): forwarded unchanged to the
 *   service (http or https), with its status, headers and body streamed back.
 * - Anything else: a file of the built app, `index.html` for paths without one.
 *
 * `stop()` and `start()` take the server down and bring it back on the same port, which is how
 * the end-to-end tests prove that the app starts with no server at all.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { PAGE_ERRORS_PATH, pageErrorsScript, type PageError } from './engines/page-errors.js';

/** Options of {@link createAppServer}. */
export interface AppServerOptions {
  /** Folder of the built app (with `index.html`). */
  root: string;
  /**
   * The service's base URL to proxy, e.g. the simulator's `http://127.0.0.1:4010/api/v1`: its path
   * on this server is forwarded there. Omitted: nothing is proxied (the app calls the service itself).
   */
  apiBaseUrl?: string;
  /**
   * What `config.json` answers: `baseUrl` (default: the proxied path), the token when the app may
   * have it (the simulator's), a tenant. Omitted: 404 (the app then asks for address and token).
   */
  config?: { baseUrl?: string; token?: string; tenant?: string };
  /**
   * Called with each error a page reports (uncaught errors, unhandled rejections, `console.error`):
   * when given, every HTML page served starts with the reporting script of `engines/page-errors.ts`.
   */
  pageErrors?: (error: PageError) => void;
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 0 (a free port) */
  port?: number;
}

/** A running app server. */
export interface AppServer {
  /** `http://host:port/`: the address to open. */
  readonly url: string;
  /**
   * The base URL the app uses for the API: same origin and the service's path when it is proxied,
   * else `config.baseUrl` (empty when there is neither).
   */
  readonly apiBaseUrl: string;
  /** Stops serving (open connections are cut). */
  stop(): Promise<void>;
  /** Serves again on the same port. */
  start(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

/** Starts an {@link AppServer}. */
export async function createAppServer(options: AppServerOptions): Promise<AppServer> {
  const root = resolve(options.root);
  const api = options.apiBaseUrl === undefined ? undefined : new URL(options.apiBaseUrl);
  const apiPath = api?.pathname.replace(/\/+$/, '');
  const host = options.host ?? '127.0.0.1';
  const headScript = `<script>${pageErrorsScript()}</script>`;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://app.invalid');
    if (api && apiPath !== undefined && (url.pathname === apiPath || url.pathname.startsWith(`${apiPath}/`))) return proxy(req, res, api);
    if (url.pathname === '/config.json') return sendConfig(res, options.config, apiPath);
    if (options.pageErrors && url.pathname === PAGE_ERRORS_PATH && req.method === 'POST') return receivePageError(req, res, options.pageErrors);
    void serveFile(root, url.pathname, res, options.pageErrors ? headScript : undefined);
  };

  let server: Server = createServer(handle);
  let port = options.port ?? 0;
  const listen = () =>
    new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => {
        server.off('error', fail);
        port = (server.address() as AddressInfo).port;
        done();
      });
    });
  await listen();
  const origin = `http://${host}:${port}`;

  return {
    url: `${origin}/`,
    apiBaseUrl: apiPath === undefined ? (options.config?.baseUrl ?? '') : `${origin}${apiPath}`,
    async stop() {
      if (!server.listening) return;
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
    },
    async start() {
      if (server.listening) return;
      server = createServer(handle);
      await listen();
    },
  };
}

function sendConfig(res: ServerResponse, config: AppServerOptions['config'], apiPath: string | undefined): void {
  const baseUrl = config?.baseUrl ?? apiPath;
  if (!config || baseUrl === undefined) {
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"no config"}');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ baseUrl, token: config.token, tenant: config.tenant }));
}

function proxy(req: IncomingMessage, res: ServerResponse, api: URL): void {
  const headers = { ...req.headers, host: api.host };
  const send = api.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(
    { protocol: api.protocol, hostname: api.hostname, port: api.port, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'Content-Type': 'application/json' }).end('{"error":"the service is not reachable"}');
  });
  req.pipe(upstream);
}

/** Reads one reported {@link PageError} (a beacon: the page does not wait for the answer). */
function receivePageError(req: IncomingMessage, res: ServerResponse, onError: (error: PageError) => void): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    res.writeHead(204).end();
    try {
      onError(JSON.parse(body) as PageError);
    } catch {
      onError({ tab: '?', url: '?', kind: 'error', message: `an unreadable page error report: ${body.slice(0, 200)}` });
    }
  });
}

async function serveFile(root: string, pathname: string, res: ServerResponse, headScript?: string): Promise<void> {
  let path = normalize(join(root, decodeURIComponent(pathname)));
  if (path !== root && !path.startsWith(root + sep)) {
    res.writeHead(403).end();
    return;
  }
  let info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) {
    path = join(path, 'index.html');
    info = await stat(path).catch(() => undefined);
  }
  if (!info && extname(pathname) === '') {
    // An app route: the page itself.
    path = join(root, 'index.html');
    info = await stat(path).catch(() => undefined);
  }
  if (!info?.isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return;
  }
  const hashed = path.includes(`${sep}assets${sep}`);
  if (headScript && extname(path) === '.html') {
    // The reporting script runs before anything else of the page.
    const html = (await readFile(path, 'utf8')).replace(/<head[^>]*>/i, (head) => `${head}${headScript}`);
    res.writeHead(200, { 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-cache' }).end(html);
    return;
  }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  createReadStream(path).pipe(res);
}
