import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPaginationError, type RecordPage } from '../../src/client/index.js';
import { clientFor } from './helpers/client-for.js';
import { send, startRawServer, type RawServer, type SeenRequest } from './helpers/raw-server.js';

/** Ids 1..n as big ids sharing a long prefix, so numeric and string order differ for the short ones. */
const ids = (n: number): bigint[] => Array.from({ length: n }, (_, i) => (i < 3 ? BigInt(i + 8) : 10_000_000_000_000_000_000n + BigInt(i)));

interface ListServerOptions {
  inclusive?: boolean;
  /** Bytes of padding per record (fat orders). */
  pad?: number;
  /** Fail pages whose body would exceed this many bytes with a 500. */
  failAboveBytes?: number;
}

/** Serves a list by the spec's pagination rules over `records`. */
function listServer(server: RawServer, records: bigint[], options: ListServerOptions = {}): void {
  server.handle((r: SeenRequest, res) => {
    const url = new URL(r.url, 'http://x');
    const limit = Number(url.searchParams.get('limit'));
    const forward = url.searchParams.get('direction') === 'forward';
    const start = url.searchParams.get('id_start');
    const sorted = [...records].sort((a, b) => (a < b ? -1 : 1));
    if (!forward) sorted.reverse();
    let from = 0;
    if (start !== null && start !== '0') {
      const s = BigInt(start);
      from = sorted.findIndex((id) => (forward ? id > s : id < s));
      if (from < 0) from = sorted.length;
      if (options.inclusive && sorted.includes(s)) from = sorted.indexOf(s);
    }
    const page = sorted.slice(from, from + limit);
    const pad = 'x'.repeat(options.pad ?? 0);
    const body = `[${page.map((id) => `{"id":${id},"_v":1,"name":"w${pad}"}`).join(',')}]`;
    if (options.failAboveBytes !== undefined && body.length > options.failAboveBytes) send(res, 500, '{"error":"response too large"}');
    else send(res, 200, body);
  });
}

async function collect<T>(pages: AsyncIterable<RecordPage<T>>): Promise<RecordPage<T>[]> {
  const out: RecordPage<T>[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

const idsOf = (pages: RecordPage<{ id: string }>[]): string[] => pages.flatMap((p) => p.map((r) => r.id));

describe('pages()', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  it.each([false, true])('walks every record once, in id order, whether the server repeats id_start (%s)', async (inclusive) => {
    const all = ids(23);
    listServer(server, all, { inclusive });
    const { client } = clientFor(server.baseUrl);
    const pages = await collect(client.pages('warehouses', { limit: 5 }));
    expect(idsOf(pages)).toEqual(all.map(String));
    expect(pages.at(-1)?.done).toBe(true);
    expect(pages.slice(0, -1).every((p) => !p.done)).toBe(true);
  });

  it.each([false, true])('walks backward newest first (inclusive %s), never changing direction', async (inclusive) => {
    const all = ids(12);
    listServer(server, all, { inclusive });
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl);
    const pages = await collect(client.pages('warehouses', { limit: 4, direction: 'backward' }));
    expect(idsOf(pages)).toEqual(all.map(String).reverse());
    const sent = server.requests.slice(before).map((r) => new URL(r.url, 'http://x').searchParams);
    expect(sent.every((q) => q.get('direction') === 'backward' && q.get('limit') === '4')).toBe(true);
    expect(sent.map((q) => q.get('id_start'))).toEqual([null, ...pages.slice(0, -1).map((p) => p.cursor)]);
  });

  it('stops on a short page and reports each cursor through onPage, resumable from any of them', async () => {
    const all = ids(10);
    listServer(server, all);
    const { client } = clientFor(server.baseUrl);
    const cursors: (string | undefined)[] = [];
    const pages = await collect(client.pages('warehouses', { limit: 4, onPage: (p) => cursors.push(p.cursor) }));
    expect(pages.map((p) => p.length)).toEqual([4, 4, 2]);
    expect(cursors).toEqual(pages.map((p) => p.cursor));
    const resumed = await collect(client.pages('warehouses', { limit: 4, idStart: cursors[0] ?? '0' }));
    expect(idsOf(resumed)).toEqual(all.slice(4).map(String));
  });

  it('ends with an empty last page when the count is a multiple of the limit', async () => {
    listServer(server, ids(8));
    const { client } = clientFor(server.baseUrl);
    const pages = await collect(client.pages('warehouses', { limit: 4 }));
    expect(pages.map((p) => [p.length, p.done])).toEqual([[4, false], [4, false], [0, true]]);
  });

  it('moves on with limit 1 against a server that repeats id_start', async () => {
    const all = ids(4);
    listServer(server, all, { inclusive: true });
    const { client } = clientFor(server.baseUrl);
    expect(idsOf(await collect(client.pages('warehouses', { limit: 1 })))).toEqual(all.map(String));
  });

  it('detects a server that ignores id_start and answers the same page again', async () => {
    server.handle((_r, res) => send(res, 200, '[{"id":1,"_v":1},{"id":2,"_v":1}]'));
    const { client } = clientFor(server.baseUrl);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const page of client.pages('warehouses', { limit: 2 })) seen.push(...page.map((r) => r.id));
    })().catch((e: unknown) => e);
    expect(isPaginationError(error)).toBe(true);
    expect(error).toMatchObject({ collection: 'warehouses', cursor: '2' });
    expect((error as Error).message).toContain('no progress');
    expect(seen).toEqual(['1', '2']);
  });

  it('detects a server that walks the wrong way', async () => {
    server.handle((r, res) => {
      const start = new URL(r.url, 'http://x').searchParams.get('id_start');
      const next = start === null ? 100 : Number(start) - 10;
      send(res, 200, `[{"id":${next},"_v":1},{"id":${next - 1},"_v":1}]`);
    });
    const { client } = clientFor(server.baseUrl);
    await expect(collect(client.pages('warehouses', { limit: 2, direction: 'forward' }))).rejects.toThrow(/no progress.*forward/);
  });

  it('detects a full page with no readable id to continue from', async () => {
    server.handle((_r, res) => send(res, 200, '[{"_v":1},{"_v":1}]'));
    const { client } = clientFor(server.baseUrl);
    await expect(collect(client.pages('warehouses', { limit: 2 }))).rejects.toThrow(/no readable id/);
  });

  it('halves an orders page the server fails on for size, retries it at once, and learns to stay under the cap', async () => {
    const all = ids(300);
    listServer(server, all, { pad: 1_000, failAboveBytes: 20 * 1_050 });
    const before = server.requests.length;
    const { client, retries } = clientFor(server.baseUrl);
    const pages = await collect(client.pages('orders', { limit: 40, direction: 'forward' }));
    expect(idsOf(pages)).toEqual(all.map(String));
    const limits = server.requests.slice(before).map((r) => Number(new URL(r.url, 'http://x').searchParams.get('limit')));
    expect(limits.slice(0, 2)).toEqual([40, 20]);
    const failures = limits.length - pages.length;
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(pages.length / 3);
    expect(pages.every((p) => p.bytes <= 20 * 1_050)).toBe(true);
    expect(retries).toEqual([]); // a size failure is answered by shrinking, not by waiting
  });

  it('asks for smaller orders pages when records are fat enough to near the 6 MB cap', async () => {
    const all = ids(12);
    listServer(server, all, { pad: 1_000_000 });
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl);
    const pages = await collect(client.pages('orders', { limit: 6, direction: 'forward' }));
    expect(idsOf(pages)).toEqual(all.map(String));
    const limits = server.requests.slice(before).map((r) => Number(new URL(r.url, 'http://x').searchParams.get('limit')));
    expect(limits[0]).toBe(6);
    expect(limits.slice(1).every((l) => l <= 4)).toBe(true);
  });

  it('refuses bad queries with a ValidationError naming the field, before any request', async () => {
    const { client } = clientFor(server.baseUrl);
    const before = server.requests.length;
    expect(() => client.pages('warehouses', { limit: 401 })).toThrow(/limit must be an integer from 1 to 400 for warehouses/);
    expect(() => client.pages('orders', { limit: 2001 })).toThrow(/1 to 2000 for orders/);
    await expect(client.list('warehouses', { limit: 0 })).rejects.toThrow(/limit/);
    await expect(client.list('warehouses', { direction: 'sideways' as 'forward' })).rejects.toThrow(/direction/);
    await expect(client.list('warehouses', { idStart: '12a' })).rejects.toThrow(/idStart/);
    await expect(client.list('warehouses', { versionStart: -1 })).rejects.toThrow(/versionStart/);
    await expect(client.list('nope' as 'warehouses')).rejects.toThrow(/unknown collection "nope"/);
    expect(server.requests.length).toBe(before);
  });

  it('sends the collection defaults, id_start as a string and version_start', async () => {
    listServer(server, ids(2));
    const { client } = clientFor(server.baseUrl);
    await client.list('orders', { idStart: '10000000000000000000001', versionStart: 1_700_000_000_000 });
    expect(server.requests.at(-1)?.url).toBe('/orders?limit=250&direction=backward&id_start=10000000000000000000001&version_start=1700000000000');
    await client.list('transactions');
    expect(server.requests.at(-1)?.url).toBe('/transactions?limit=100&direction=backward');
  });

  it('does not take a short orders page that nearly fills the 6 MB cap for the last one (the server may cut there)', async () => {
    const all = ids(8);
    const pad = 'x'.repeat(1_900_000);
    server.handle((r, res) => {
      const q = new URL(r.url, 'http://x').searchParams;
      const start = q.get('id_start');
      const rest = all.filter((id) => start === null || id > BigInt(start));
      // Cut at a record boundary under 6 MB, whatever the limit asked for.
      const page = rest.slice(0, Math.min(Number(q.get('limit')), 3));
      send(res, 200, `[${page.map((id) => `{"id":${id},"_v":1,"pad":"${pad}"}`).join(',')}]`);
    });
    const { client } = clientFor(server.baseUrl);
    const pages = await collect(client.pages('orders', { limit: 6, direction: 'forward' }));
    expect(idsOf(pages)).toEqual(all.map(String));
  });

  it('requests the next page while the consumer holds the current one, and aborts it when the consumer stops', async () => {
    let closedEarly = 0;
    server.handle((r, res, req) => {
      const start = new URL(r.url, 'http://x').searchParams.get('id_start');
      if (start === null) {
        send(res, 200, '[{"id":1,"_v":1},{"id":2,"_v":1}]');
        return;
      }
      req.socket.once('close', () => closedEarly++); // the second page is never answered
    });
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl);
    for await (const page of client.pages('warehouses', { limit: 2 })) {
      expect(page.map((w) => w.id)).toEqual(['1', '2']);
      while (server.requests.length < before + 2) await new Promise((r) => setTimeout(r, 5));
      expect(server.requests[before + 1]?.url).toBe('/warehouses?limit=2&direction=forward&id_start=2');
      break;
    }
    while (closedEarly === 0) await new Promise((r) => setTimeout(r, 5));
    expect(server.requests.length).toBe(before + 2);
  });

  it('does not prefetch for list(): one page, one request', async () => {
    listServer(server, ids(10));
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl);
    await client.list('warehouses', { limit: 3 });
    await client.list('shops', { limit: 3 });
    expect(server.requests.slice(before).map((r) => r.url.split('?')[0])).toEqual(['/warehouses', '/shops']);
  });
});

