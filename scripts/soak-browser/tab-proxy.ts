/**
 * A tab's own way to the service: an HTTP proxy on a port of its own, in front of the simulator.
 * Each tab's mirror talks to the service through its proxy (the simulator answers CORS), so:
 * - stopping the proxy cuts that tab's network only (connections refused, those open cut), in
 *   every engine alike; starting it again on the same port brings the network back;
 * - the harness sees each request and its answer, to reload or close the tab at a chosen point:
 *   after the n-th answered GET of a pull, right after a POST went out (the service applies it,
 *   the answer never reaches the page), right after a POST was answered (the page may or may not
 *   have handled it);
 * - every list page and POST goes through the {@link ServiceWatch}.
 */
import { createServer, request, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { collectionOfPath, type ServiceWatch } from './service-watch.js';

/** Where a trap springs (see the file's comment). */
export type TrapPoint = 'mid-pull' | 'post-sent' | 'post-answered';

/** A trap set on a proxy: `spring` reloads or closes the tab. */
export interface Trap {
  point: TrapPoint;
  /** For `mid-pull`: answered GETs still to go. */
  left: number;
  spring(): void;
}

/** One tab's proxy. */
export class TabProxy {
  private server: Server | undefined;
  private port = 0;
  private readonly sockets = new Set<Socket>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private trap: Trap | undefined;
  /** Requests forwarded, by method. */
  readonly counts = { GET: 0, POST: 0, other: 0 };

  private constructor(
    readonly slot: number,
    private readonly target: URL,
    private readonly watch: ServiceWatch,
  ) {}

  /** Starts a proxy for tab `slot` in front of the service at `serviceBaseUrl`. */
  static async start(slot: number, serviceBaseUrl: string, watch: ServiceWatch): Promise<TabProxy> {
    const proxy = new TabProxy(slot, new URL(serviceBaseUrl), watch);
    await proxy.listen();
    return proxy;
  }

  /** The service's base URL through this proxy, for the tab's mirror. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}${this.target.pathname.replace(/\/$/, '')}`;
  }

  /** Whether the tab's network is up. */
  get up(): boolean {
    return this.server?.listening === true;
  }

  /** Sets a trap (replacing any); it springs once. */
  arm(trap: Trap): void {
    this.trap = trap;
  }

  /** Takes a trap that has not sprung; returns whether there was one. */
  disarm(): boolean {
    const had = this.trap !== undefined;
    this.trap = undefined;
    return had;
  }

  /** Cuts the tab's network: no new connection, and the open ones are cut. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server?.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    server.closeAllConnections();
    await closed;
  }

  /** Brings the network back on the same port. */
  async start(): Promise<void> {
    if (this.server?.listening) return;
    await this.listen();
  }

  /** Stops for good. */
  async close(): Promise<void> {
    await this.stop();
    this.agent.destroy();
  }

  private async listen(): Promise<void> {
    const server = createServer({ keepAlive: true }, (req, res) => this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]!;
    const collection = collectionOfPath(path, this.target.pathname.replace(/\/$/, ''));
    if (method === 'GET') this.counts.GET++;
    else if (method === 'POST') this.counts.POST++;
    else this.counts.other++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const now = Date.now();
      const post = method === 'POST' && collection ? this.watch.sawPost(this.slot, collection, body.toString('utf8'), now) : undefined;
      if (method === 'GET' && collection) this.watch.beforeGet?.(collection);
      const trap = this.trap;
      const upstream = request(
        {
          protocol: this.target.protocol,
          hostname: this.target.hostname,
          port: this.target.port,
          method,
          path: req.url,
          headers: { ...req.headers, host: this.target.host },
          agent: this.agent,
        },
        (answer) => this.answer(answer, res, { method, collection, post, trap }),
      );
      upstream.on('error', () => {
        // The service dropped the connection (it may have applied the request): so does the proxy.
        if (post) post.endedAt ??= Date.now();
        res.destroy();
      });
      upstream.end(body);
    });
  }

  private answer(
    answer: IncomingMessage,
    res: ServerResponse,
    request: { method: string; collection: ReturnType<typeof collectionOfPath>; post: ReturnType<ServiceWatch['sawPost']> | undefined; trap: Trap | undefined },
  ): void {
    const { method, collection, post, trap } = request;
    const ended = () => {
      if (post) post.endedAt ??= Date.now();
    };
    if (method === 'POST' && trap?.point === 'post-sent' && this.trap === trap) {
      // The service applied it; the page never hears back: the tab goes now, its request open.
      this.trap = undefined;
      answer.resume();
      answer.on('end', ended);
      trap.spring();
      // Should the tab outlive the spring, its request fails as a dropped connection would.
      setTimeout(() => res.destroy(), 5_000).unref();
      return;
    }
    const chunks: Buffer[] = [];
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.on('data', (chunk: Buffer) => {
      if (method === 'GET') chunks.push(chunk);
      res.write(chunk);
    });
    answer.on('error', () => {
      ended();
      res.destroy();
    });
    answer.on('aborted', () => res.destroy());
    answer.on('end', () => {
      res.end();
      ended();
      if (method === 'GET' && collection && answer.statusCode === 200) this.watch.sawPage(this.slot, collection, Buffer.concat(chunks).toString('utf8'), Date.now());
    });
    res.on('finish', () => {
      const armed = this.trap;
      if (!armed) return;
      if (method === 'POST' && armed.point === 'post-answered') {
        this.trap = undefined;
        armed.spring();
      } else if (method === 'GET' && armed.point === 'mid-pull' && --armed.left <= 0) {
        this.trap = undefined;
        armed.spring();
      }
    });
  }
}
