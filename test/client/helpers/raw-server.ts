import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the raw server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; may write anything, including broken HTTP. */
export type RawHandler = (request: SeenRequest, res: ServerResponse, req: IncomingMessage) => unknown;

/** A node:http server on 127.0.0.1 whose every answer the test writes by hand. */
export interface RawServer {
  baseUrl: string;
  requests: SeenRequest[];
  handle(handler: RawHandler): void;
  close(): Promise<void>;
}

/** Starts a {@link RawServer}; `baseUrl` ends in `/api` so paths below a base path are exercised. */
export async function startRawServer(handler?: RawHandler): Promise<RawServer> {
  let current: RawHandler = handler ?? ((_r, res) => res.writeHead(500).end());
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: (req.url ?? '').replace(/^\/api/, ''),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      void Promise.resolve(current(seen, res, req)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    requests,
    handle(next) {
      current = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes a JSON (or any text) body with a status and extra headers. */
export function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}
