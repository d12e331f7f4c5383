/**
 * An HTTP proxy between a mirror process and the simulator that kills the process at a chosen
 * point of its conversation with the server: right after a POST landed on the server (before
 * its answer reaches the process), or while the process applies a page it was just sent.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where to kill: after the server answered a POST, or a few ms after a page went out. */
export type KillPoint = 'after-post' | 'mid-page';

/** A proxy in front of one server (see the file's comment). */
export interface KillProxy {
  /** The server's base URL, through the proxy. */
  readonly baseUrl: string;
  /** Calls `kill` at the next `point` (once). */
  arm(point: KillPoint, kill: () => void): void;
  /** Forgets an armed kill that did not happen. */
  disarm(): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 in front of `baseUrl` (`http://host:port/base`). */
export async function startKillProxy(baseUrl: string): Promise<KillProxy> {
  const target = new URL(baseUrl);
  let armed: { point: KillPoint; kill: () => void } | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer: IncomingMessage) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const plan = armed;
            if (plan?.point === 'after-post' && req.method === 'POST') {
              // The POST has landed; the process dies before it hears so.
              armed = undefined;
              plan.kill();
              res.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
            if (plan?.point === 'mid-page' && req.method === 'GET') {
              armed = undefined;
              setTimeout(plan.kill, Math.floor(Math.random() * 15));
            }
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
    req.on('error', () => undefined);
    res.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    arm(point, kill) {
      armed = { point, kill };
    },
    disarm() {
      armed = undefined;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
