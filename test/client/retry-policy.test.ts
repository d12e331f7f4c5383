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

  it('retries 429 without Retry-After with full-jitter exponential backoff', async () => {
    failThenSucceed(server, 3, 429);
    const { client, delays } = clientFor(server.baseUrl, { retry: { baseDelayMs: 100, maxDelayMs: 10_000 } });
    await expect(client.list('shops')).resolves.toHaveLength(0);
    expect(delays).toEqual([50, 100, 200]); // random() = 0.5 of 100, 200, 400
  });

  it('honours Retry-After in seconds exactly', async () => {
    failThenSucceed(server, 2, 429, { 'retry-after': '2' });
    const { client, delays } = clientFor(server.baseUrl);
    await client.list('shops');
    expect(delays).toEqual([2_000, 2_000]);
  });

  it('honours Retry-After as an HTTP date, measured against the response Date', async () => {
    const date = new Date(Date.now() + 3_600_000); // a server clock one hour ahead of ours
    failThenSucceed(server, 1, 429, { date: date.toUTCString(), 'retry-after': new Date(date.getTime() + 5_000).toUTCString() });
    const { client, delays } = clientFor(server.baseUrl);
    await client.list('shops');
    expect(delays).toEqual([5_000]);
  });

  it('gives up after the last try with a RateLimitError carrying retryAfterMs', async () => {
    failThenSucceed(server, 99, 429, { 'retry-after': '1' });
    const { client, delays } = clientFor(server.baseUrl, { retry: { limit: 3 } });
    const error = await client.list('shops').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1_000, body: { error: 'try later' } });
    expect(delays).toEqual([1_000, 1_000]);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: it surfaces for the caller to schedule', async () => {
    failThenSucceed(server, 1, 429, { 'retry-after': '3600' });
    const { client, delays } = clientFor(server.baseUrl, { retry: { maxRetryAfterMs: 60_000 } });
    await expect(client.list('shops')).rejects.toMatchObject({ name: 'RateLimitError', retryAfterMs: 3_600_000 });
    expect(delays).toEqual([]);
  });

  it.each([500, 502, 503, 504])('retries %i on a GET', async (status) => {
    failThenSucceed(server, 2, status);
    const { client, delays } = clientFor(server.baseUrl);
    await expect(client.list('shops')).resolves.toHaveLength(0);
    expect(delays).toHaveLength(2);
  });

  it('gives up on a lasting 503 with an HttpError naming status, method and path', async () => {
    failThenSucceed(server, 99, 503);
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl, { retry: { limit: 4 } });
    const error = await client.list('shops').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('the service failed (503 on GET /shops?limit=100&direction=forward)');
    expect(server.requests.length - before).toBe(4);
  });

  it.each([401, 403])('never retries %i: AuthError at once', async (status) => {
    failThenSucceed(server, 99, status);
    const { client, delays } = clientFor(server.baseUrl);
    await expect(client.list('shops')).rejects.toBeInstanceOf(AuthError);
    expect(delays).toEqual([]);
  });

  it('turns 400 on a request with id_start into InvalidCursorError, without retrying', async () => {
    failThenSucceed(server, 99, 400);
    const { client, delays } = clientFor(server.baseUrl);
    await expect(client.list('shops', { idStart: '123' })).rejects.toBeInstanceOf(InvalidCursorError);
    const plain = await client.list('shops').catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(HttpError);
    expect(plain).not.toBeInstanceOf(InvalidCursorError);
    expect(delays).toEqual([]);
  });

  it('does not retry other 4xx statuses', async () => {
    failThenSucceed(server, 99, 422);
    const { client, delays } = clientFor(server.baseUrl);
    await expect(client.save('shops', { id: '5', name: 'x' })).rejects.toMatchObject({ status: 422 });
    expect(delays).toEqual([]);
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
    const { client, delays } = clientFor(server.baseUrl);
    await expect(client.save('shops', [{ id: '5' }, { name: 'new shop' }])).rejects.toMatchObject({ status: 500 });
    failThenSucceed(server, 1, 502);
    await expect(client.save('shops', { id: 0, name: 'new' })).rejects.toMatchObject({ status: 502 });
    server.handle((_r, res) => res.destroy());
    await expect(client.save('shops', { name: 'new' })).rejects.toMatchObject({ name: 'NetworkError' });
    expect(delays).toEqual([]);
  });

  it('retries a creating POST on 429: a rate-limited request was not applied', async () => {
    failThenSucceed(server, 1, 429, { 'retry-after': '1' });
    const { client, delays } = clientFor(server.baseUrl);
    await expect(client.save('shops', { name: 'new shop' })).resolves.toEqual({ ok: true });
    expect(delays).toEqual([1_000]);
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
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, userAgent: 'tests', retry: { baseDelayMs: 60_000 }, random: () => 0.99 });
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
