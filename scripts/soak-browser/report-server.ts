/**
 * Where the soak's pages send what only they know (see `PageReport`): a small HTTP server on a
 * port of its own, never cut, so a report survives the tab's network being down. Reports come as
 * beacons (`text/plain`, no CORS preflight) from the app's origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PageReport } from './page/soak-page.js';

/** The report server, and every report it received, in order. */
export interface ReportServer {
  readonly url: string;
  readonly reports: PageReport[];
  /** Adds reports read from a page itself (those whose beacon was lost); one already received counts once. */
  merge(reports: readonly PageReport[]): void;
  close(): Promise<void>;
}

/** Starts a {@link ReportServer} on 127.0.0.1. */
export async function startReportServer(): Promise<ReportServer> {
  const reports: PageReport[] = [];
  const seen = new Set<string>();
  const add = (report: PageReport) => {
    const key = `${report.session}|${report.seq}`;
    if (seen.has(key)) return;
    seen.add(key);
    reports.push(report);
  };
  const state: ReportServer = {
    url: '',
    reports,
    merge: (list) => list.forEach(add),
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      res.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
      try {
        add(JSON.parse(body) as PageReport);
      } catch {
        // Not a report of ours.
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  (state as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
