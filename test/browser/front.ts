/**
 * The server a conformance page talks to, in front of the app server: everything goes on to it,
 * except what a test takes away from the page's way to the service (its path): cut it whole, as a
 * lost network does (the page and its scripts are still served, as an app shell a device has
 * cached), or hold chosen requests, before they reach the service or after it has answered, while
 * the test reloads or closes the page, or until it lets them through (a slow service).
 * Engine-neutral: no browser's own offline switch is used.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where {@link Front.stall} holds a request: before the service sees it, or once it has answered. */
export type StallPoint = 'request' | 'answer';

/** Requests held by {@link Front.stall}. */
export interface Stall {
  /** Resolves with the address of the first request held (at `answer`: once the service has answered it). */
  readonly reached: Promise<URL>;
  /**
   * Ends the requests held and holds no more: a request held before the service closes its
   * connection; an answer held is cut off after its status and headers (its body never reaches
   * the page), or with `'before-answer'` before its first byte. Chromium and Firefox send a POST
   * again by themselves when a reused connection closes before the first byte of its answer (an
   * answer cut after its headers is not sent again by any engine).
   */
  end(cut?: 'after-headers' | 'before-answer'): void;
  /**
   * Lets the requests held go on as if they had never been held (one held before the service
   * goes to it now; an answer held reaches the page whole), and holds no more: a slow service,
   * where `end()` is a broken one.
   */
  release(): void;
}

/** The front server. */
export interface Front {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /**
   * Cuts (`true`) or restores the page's way to the service: while cut, every request under the
   * service's path loses its connection before an answer (a network failure in the page), and
   * nothing reaches the service.
   */
  cutService(cut: boolean): void;
  /**
   * Holds every request to the service for which `match` says yes (it sees each request's address
   * and method, in order of arrival) at `point`, until `end()`.
   */
  stall(match: (url: URL, method: string) => boolean, point?: StallPoint): Stall;
  close(): Promise<void>;
}

interface Held {
  match(url: URL, method: string): boolean;
  point: StallPoint;
  /** Holds a request; `pass` lets it go on (to the service, or its answer kept to the page). */
  hold(req: IncomingMessage, url: URL, pass: () => void, answered?: { res: ServerResponse; answer: IncomingMessage }): void;
}

/** Starts a {@link Front} for the app server at `appUrl`, whose service lives under `servicePath`. */
export async function startFront(appUrl: string, servicePath: string): Promise<Front> {
  const target = new URL(appUrl);
  const stalls = new Set<Held>();
  let cut = false;
  let origin = '';
  const forward = (req: IncomingMessage, res: ServerResponse, held?: { by: Held; url: URL }) => {
    const upstream = request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (held) {
        // The service has handled the request: its answer is read and kept from the page.
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        const pass = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        };
        answer.on('end', () => held.by.hold(req, held.url, pass, { res, answer }));
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!(req.url ?? '').startsWith(servicePath)) {
      forward(req, res);
      return;
    }
    if (cut) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    const held = [...stalls].find((s) => s.match(url, req.method ?? 'GET'));
    if (held?.point === 'request') held.hold(req, url, () => forward(req, res));
    else forward(req, res, held && { by: held, url });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    cutService(value) {
      cut = value;
    },
    stall(match, point = 'request') {
      let reach!: (url: URL) => void;
      const reached = new Promise<URL>((resolve) => (reach = resolve));
      const ends: ((cut: 'after-headers' | 'before-answer') => void)[] = [];
      const passes: (() => void)[] = [];
      const held: Held = {
        match,
        point,
        hold(req, url, pass, answered) {
          passes.push(pass);
          ends.push((cut) => {
            if (answered && cut === 'after-headers') {
              answered.res.writeHead(answered.answer.statusCode ?? 502, answered.answer.headers);
              answered.res.flushHeaders();
            }
            // Let the headers go out before the connection closes.
            setTimeout(() => req.socket.destroy(), answered && cut === 'after-headers' ? 20 : 0);
          });
          reach(url);
        },
      };
      stalls.add(held);
      return {
        reached,
        end(cut = 'after-headers') {
          stalls.delete(held);
          passes.length = 0;
          for (const end of ends.splice(0)) end(cut);
        },
        release() {
          stalls.delete(held);
          ends.length = 0;
          for (const pass of passes.splice(0)) pass();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
