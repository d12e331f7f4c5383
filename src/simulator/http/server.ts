/**
 * The HTTP front of the simulator (node:http, keep-alive). Per request: read the body, wait the
 * configured latency, draw the request's faults (rate limit, extra 429, 500), check
 * `Authorization: A|<token>` (401 otherwise; `Bearer` is refused too), route, handle, then maybe
 * drop the connection or truncate the body, and log. CORS is open so browser apps can call it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimStore } from '../store/sim-store.js';
import type { Switches } from '../switches.js';
import type { Faults } from './faults.js';
import type { RequestLog, LoggedRequest } from './request-log.js';
import { errorReply, type Reply } from './respond.js';
import { collectionSwitchReply } from './collection-switches.js';
import type { RequestsUnderWay } from './requests-under-way.js';
import { matchRoute } from './routes.js';

/** Largest request body accepted (bytes); more is answered 413. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What the server reads on every request (switches and faults can change between requests). */
export interface ServerState {
  store: SimStore;
  /** The token requests must carry; `setToken` replaces it. */
  token: string;
  basePath: string;
  switches: () => Readonly<Switches>;
  faults: Faults;
  log: RequestLog;
  /** Requests being handled now (see {@link RequestsUnderWay}). */
  underWay: RequestsUnderWay;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, Content-Length, Date',
};

/** Starts listening; resolves with the server and its port. */
export async function startServer(state: ServerState, host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    state.underWay.begin();
    handle(state, req, res)
      .catch((error: unknown) => {
        // A bug in a handler must not take the process down: answer 500 and carry on.
        if (!res.headersSent) send(res, errorReply(500, 'internal', `simulator error: ${error instanceof Error ? error.message : String(error)}`));
        else res.destroy();
      })
      .finally(() => state.underWay.end());
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== 'authorization' && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const entry: Omit<LoggedRequest, 'seq'> = { method, path, route: `${method} (unknown)`, query: Object.fromEntries(query), headers, status: 0, bytes: 0 };

  if (method === 'OPTIONS') {
    // CORS preflight: answered before faults and auth, which browsers do not retry.
    entry.route = 'OPTIONS (preflight)';
    const reply: Reply = { status: 204, body: '', headers: { 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, Accept', 'access-control-max-age': '600' } };
    finish(state, res, entry, reply);
    return;
  }

  const body = await readBody(req);
  const switches = state.switches();
  const decision = state.faults.decide();
  const latency = state.faults.options.latencyMs;
  if (latency > 0) {
    entry.delayedMs = latency;
    await new Promise((resolve) => setTimeout(resolve, latency));
  }

  const below = path.startsWith(state.basePath) ? path.slice(state.basePath.length) : undefined;
  const found = below !== undefined && (below === '' || below.startsWith('/')) ? matchRoute(method, below, switches.legacyPathsOnly) : { allowed: [] };
  if (found.match) entry.route = `${method} ${found.match.route.pattern}`;

  const forced = below === undefined ? undefined : collectionSwitchReply(switches, method, below);
  let reply: Reply;
  if (body === undefined) {
    reply = errorReply(413, 'payload_too_large', `request body over ${MAX_BODY_BYTES} bytes`);
  } else if (decision.tooMany) {
    entry.fault = 'rate_limited';
    const retry = decision.tooMany.retryAfter;
    reply = errorReply(429, 'rate_limited', 'too many requests', retry === undefined ? {} : { retry_after: retry }, retry === undefined ? undefined : { 'retry-after': String(retry) });
  } else if (decision.error) {
    entry.fault = 'error';
    reply = errorReply(500, 'internal', 'internal error (injected); repeat the request');
  } else if (req.headers.authorization !== `A|${state.token}`) {
    reply = errorReply(401, 'unauthorized', 'missing or invalid Authorization header: expected "A|<API token>"');
  } else if (forced) {
    reply = forced;
  } else if (!found.match) {
    reply =
      found.allowed.length > 0
        ? errorReply(405, 'method_not_allowed', `${method} is not allowed on ${path}`, { allowed: found.allowed }, { allow: found.allowed.join(', ') })
        : errorReply(404, 'not_found', `no endpoint ${method} ${path}`);
  } else {
    reply = found.match.route.handler({ store: state.store, switches }, { params: found.match.params, query, body, headers: req.headers });
  }
  if (reply.written) entry.written = reply.written;

  if (decision.drop && !decision.tooMany && !decision.error) {
    // The handler ran (a POST is applied) but the client never hears back: the lost-ack case.
    entry.fault = 'dropped';
    state.log.add(entry);
    req.socket.destroy();
    return;
  }
  if (decision.truncateAt !== undefined && reply.status >= 200 && reply.status < 300 && reply.body.length > 1 && !decision.tooMany && !decision.error) {
    entry.fault = 'truncated';
    const bytes = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
    reply = { ...reply, body: bytes.subarray(0, Math.max(1, Math.floor(bytes.length * decision.truncateAt))) };
  }
  finish(state, res, entry, reply);
}

function finish(state: ServerState, res: ServerResponse, entry: Omit<LoggedRequest, 'seq'>, reply: Reply): void {
  entry.status = reply.status;
  entry.bytes = send(res, reply, new Date(state.store.now()).toUTCString());
  state.log.add(entry);
}

function send(res: ServerResponse, reply: Reply, date?: string): number {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  const headers: Record<string, string | number> = { ...CORS, ...reply.headers, 'content-length': body.length };
  if (reply.body.length > 0 || reply.status !== 204) headers['content-type'] = 'application/json; charset=utf-8';
  if (date) headers.date = date;
  res.writeHead(reply.status, headers);
  res.end(body);
  return body.length;
}

/** The whole request body, or undefined when it is over {@link MAX_BODY_BYTES}. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooBig = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) tooBig = true;
    else chunks.push(chunk as Buffer);
  }
  return tooBig ? undefined : Buffer.concat(chunks);
}
