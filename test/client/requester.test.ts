import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError } from '../../src/errors/index.js';
import { clientFor, SECRET } from './helpers/client-for.js';
import { send, startRawServer, type RawServer } from './helpers/raw-server.js';

describe('the requester (ky with the client\'s hooks)', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  it('sends the A| token, JSON headers and the user agent twice on every request', async () => {
    server.handle((_r, res) => send(res, 200, '[]'));
    const { client } = clientFor(server.baseUrl);
    await client.list('shops');
    await client.save('shops', { id: '5', name: 'Main' });
    for (const seen of server.requests.slice(-2)) {
      expect(seen.headers.authorization).toBe(`A|${SECRET}`);
      expect(seen.headers.accept).toBe('application/json');
      expect(seen.headers['content-type']).toBe('application/json');
      expect(seen.headers['user-agent']).toBe('pos-cloud-mirror tests (dev@example.com)');
      expect(seen.headers['x-client-user-agent']).toBe('pos-cloud-mirror tests (dev@example.com)');
    }
    expect(server.requests.at(-2)?.url).toBe('/shops?limit=100&direction=forward');
  });

  it('leaves X-Client-User-Agent out when told to (a CORS allow-list without it)', async () => {
    server.handle((_r, res) => send(res, 200, '[]'));
    const { client } = clientFor(server.baseUrl, { clientUserAgentHeader: false });
    await client.list('shops');
    expect(server.requests.at(-1)?.headers['user-agent']).toBe('pos-cloud-mirror tests (dev@example.com)');
    expect(server.requests.at(-1)?.headers).not.toHaveProperty('x-client-user-agent');
  });

  it('uses a replaced token from the next request on', async () => {
    server.handle((_r, res) => send(res, 200, '[]'));
    const { client } = clientFor(server.baseUrl);
    client.setToken('tok_NEW_2_abcdef');
    await client.list('shops');
    expect(server.requests.at(-1)?.headers.authorization).toBe('A|tok_NEW_2_abcdef');
    expect(() => client.setToken('')).toThrow(/setToken/);
  });

  it('times out a response whose body stalls, not only one whose headers do', async () => {
    server.handle((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[{"id": 1');
    });
    const { client, retries } = clientFor(server.baseUrl, { retry: { limit: 1 } });
    const error = await client.list('shops', { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('GET /shops?limit=100&direction=forward timed out after 150 ms');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error).toBeInstanceOf(TimeoutError);
  });

  it('turns a connection dropped mid-body into a NetworkError', async () => {
    server.handle((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[{"id": 1', () => res.destroy());
    });
    const { client, retries } = clientFor(server.baseUrl, { retry: { limit: 2 } });
    const error = await client.list('shops').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).request).toEqual({ method: 'GET', path: '/shops?limit=100&direction=forward' });
    expect(retries.map((r) => r.retryCount)).toEqual([1, 2]);
  });

  it('turns a refused connection into a NetworkError', async () => {
    const closed = await startRawServer();
    const url = closed.baseUrl;
    await closed.close();
    const { client } = clientFor(url, { retry: 0 });
    await expect(client.list('shops')).rejects.toBeInstanceOf(NetworkError);
  });

  it('rejects promptly with the abort reason when aborted mid-request, and does not retry', async () => {
    server.handle(() => undefined); // never answers
    const { client, retries } = clientFor(server.baseUrl);
    const controller = new AbortController();
    const before = server.requests.length;
    const pending = client.list('shops', { signal: controller.signal });
    while (server.requests.length === before) await new Promise((r) => setTimeout(r, 5));
    const reason = new Error('screen closed');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(retries).toEqual([]);
    expect(server.requests.length).toBe(before + 1);
  });

  it('rejects with a DOMException AbortError when aborted without a reason', async () => {
    server.handle(() => undefined);
    const { client } = clientFor(server.baseUrl);
    const controller = new AbortController();
    const pending = client.categories({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once when the signal is aborted before the call', async () => {
    const { client } = clientFor(server.baseUrl);
    const before = server.requests.length;
    await expect(client.get('products', '10', { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow('already');
    expect(server.requests.length).toBe(before);
  });
});
