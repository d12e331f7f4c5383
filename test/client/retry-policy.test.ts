import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, HttpError, InvalidCursorError, RateLimitError } from '../../src/errors/index.js';
import { createClient } from '../../src/client/index.js';
import { clientFor, SECRET } from './helpers/client-for.js';
import { send, startRawServer, type RawServer } from './helpers/raw-server.js';

/** Answers the first `failures` requests with `status` (and headers), then `[]` / `{}`. */
function failThenSucceed(server: RawServer, failures: number, status: number, headers: Record<string, string> = {}): void {
  let seen = 0;
  server.handle((r, res) => {
    seen++;
    if (seen <= failures) send(res, status, '{"error":"try later"}', headers);
    else send(res, 200, r.method === 'GET' ? '[]' : '{"ok":true}');
  });
}

describe('retry policy (against a raw HTTP server)', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  it('retries 429 without Retry-After with full-jitter exponential backoff (waits of 50, 100 and 200 ms here)', async () => {
    failThenSucceed(server, 3, 429);
    const { client, retries } = clientFor(server.baseUrl, { retry: { baseDelayMs: 100, backoffLimit: 10_000 } });
    const started = performance.now();
    await expect(client.list('shops')).resolves.toHaveLength(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(340); // random() = 0.5 of 100, 200, 400
    expect(retries.map((r) => [r.retryCount, r.error.name])).toEqual([[1, 'RateLimitError'], [2, 'RateLimitError'], [3, 'RateLimitError']]);
  });

  it('honours Retry-After in seconds', async () => {
    failThenSucceed(server, 1, 429, { 'retry-after': '1' });
    const { client, retries } = clientFor(server.baseUrl);
    const started = performance.now();
    await client.list('shops');
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(retries).toHaveLength(1);
  });

  it('honours Retry-After as an HTTP date, measured against the response Date (not the local clock, an hour behind)', async () => {
    const date = new Date(Date.now() + 3_600_000); // a server clock one hour ahead of ours
    failThenSucceed(server, 1, 429, { date: date.toUTCString(), 'retry-after': new Date(date.getTime() + 1_000).toUTCString() });
    const { client, retries } = clientFor(server.baseUrl);
    const started = performance.now();
    // Read against the local clock the wait would be an hour (capped at maxRetryAfter, 2 minutes): the test would time out.
    await client.list('shops');
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(retries).toHaveLength(1);
  });

  it('gives up after the last retry with a RateLimitError carrying retryAfterMs', async () => {
    failThenSucceed(server, 99, 429, { 'retry-after': '0' });
    const { client, retries } = clientFor(server.baseUrl, { retry: { limit: 2 } });
    const error = await client.list('shops').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 0, body: { error: 'try later' } });
    expect(retries).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than maxRetryAfter: it surfaces for the caller to schedule', async () => {
    failThenSucceed(server, 1, 429, { 'retry-after': '3600' });
    const { client, retries } = clientFor(server.baseUrl, { retry: { maxRetryAfter: 60_000 } });
    await expect(client.list('shops')).rejects.toMatchObject({ name: 'RateLimitError', retryAfterMs: 3_600_000 });
    expect(retries).toEqual([]);
  });

  it.each([500, 502, 503, 504, 408])('retries %i on a GET', async (status) => {
    failThenSucceed(server, 2, status);
    const { client, retries } = clientFor(server.baseUrl);
    await expect(client.list('shops')).resolves.toHaveLength(0);
    expect(retries).toHaveLength(2);
  });

  it('retries only the statuses of retry.statusCodes', async () => {
    failThenSucceed(server, 2, 502);
    const { client, retries } = clientFor(server.baseUrl, { retry: { statusCodes: [429, 503] } });
    await expect(client.list('shops')).rejects.toMatchObject({ status: 502 });
    expect(retries).toEqual([]);
  });

  it('sends a request once with retry 0 (ky\'s meaning: no retry after the first try)', async () => {
    failThenSucceed(server, 1, 503);
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl, { retry: 0 });
    await expect(client.list('shops')).rejects.toMatchObject({ status: 503 });
    expect(server.requests.length - before).toBe(1);
  });

  it('gives up on a lasting 503 with an HttpError naming status, method and path', async () => {
    failThenSucceed(server, 99, 503);
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl, { retry: { limit: 3 } });
    const error = await client.list('shops').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('the service failed: the service said "try later" (503 on GET /shops?limit=100&direction=forward)');
    expect(server.requests.length - before).toBe(4); // the first try and 3 retries
  });

  it.each([401, 403])('never retries %i: AuthError at once', async (status) => {
    failThenSucceed(server, 99, status);
    const { client, retries } = clientFor(server.baseUrl);
    await expect(client.list('shops')).rejects.toBeInstanceOf(AuthError);
    expect(retries).toEqual([]);
  });

  it('turns 400 on a request with id_start into InvalidCursorError, without retrying', async () => {
    failThenSucceed(server, 99, 400);
    const { client, retries } = clientFor(server.baseUrl);
    await expect(client.list('shops', { idStart: '123' })).rejects.toBeInstanceOf(InvalidCursorError);
    const plain = await client.list('shops').catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(HttpError);
    expect(plain).not.toBeInstanceOf(InvalidCursorError);
    expect(retries).toEqual([]);
  });

  it('does not retry other 4xx statuses', async () => {
    failThenSucceed(server, 99, 422);
    const { client, retries } = clientFor(server.baseUrl);
    await expect(client.save('shops', { id: '5', name: 'x' })).rejects.toMatchObject({ status: 422 });
    expect(retries).toEqual([]);
  });

  it('retries a POST whose every record carries its own id', async () => {
    failThenSucceed(server, 2, 500);
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl);
    await expect(client.save('shops', [{ id: '5' }, { id: 6 }])).resolves.toEqual({ ok: true });
    const bodies = server.requests.slice(before).map((r) => r.body);
    expect(bodies).toEqual(Array(3).fill('[{"id":5,"_t":"shops"},{"id":6,"_t":"shops"}]'));
  });

  it('does not retry a POST that creates (a record without id, or id 0) after a 5xx or a drop', async () => {
    failThenSucceed(server, 1, 500);
    const { client, retries } = clientFor(server.baseUrl);
    await expect(client.save('shops', [{ id: '5' }, { name: 'new shop' }])).rejects.toMatchObject({ status: 500 });
    failThenSucceed(server, 1, 502);
    await expect(client.save('shops', { id: 0, name: 'new' })).rejects.toMatchObject({ status: 502 });
    server.handle((_r, res) => res.destroy());
    await expect(client.save('shops', { name: 'new' })).rejects.toMatchObject({ name: 'NetworkError' });
    expect(retries).toEqual([]);
  });

  it('retries a creating POST on 429: a rate-limited request was not applied', async () => {
    failThenSucceed(server, 1, 429, { 'retry-after': '0' });
    const { client, retries } = clientFor(server.baseUrl);
    await expect(client.save('shops', { name: 'new shop' })).resolves.toEqual({ ok: true });
    expect(retries).toHaveLength(1);
  });

  it('retries the report POSTs like reads', async () => {
    let seen = 0;
    server.handle((_r, res) => (++seen === 1 ? send(res, 500, '') : send(res, 200, '{"data":[],"source":"sim"}')));
    const { client } = clientFor(server.baseUrl);
    await expect(client.warehouseStatus({ id_warehouse: '42' })).resolves.toEqual({ data: [], source: 'sim' });
    expect(server.requests.at(-1)?.body).toBe('{"id_warehouse":42}');
  });

  it('stops waiting for a retry as soon as the call is aborted (real backoff timer)', async () => {
    failThenSucceed(server, 99, 503);
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, userAgent: 'tests', retry: { baseDelayMs: 60_000, backoffLimit: 60_000 }, random: () => 0.99 });
    const controller = new AbortController();
    const before = server.requests.length;
    const pending = client.list('shops', { signal: controller.signal });
    while (server.requests.length === before) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    const reason = new Error('user navigated away');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests.length - before).toBe(1);
  });
});
