import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { PosCloudError } from '../../src/errors/index.js';
import { clientFor, SECRET } from './helpers/client-for.js';
import { send, startRawServer, type RawServer, type SeenRequest } from './helpers/raw-server.js';

/** Every string reachable from `value` through own properties (enumerable or not), causes included. */
function reachableText(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' && typeof value !== 'function') return [String(value)];
  if (value === null || seen.has(value)) return [];
  seen.add(value);
  const out: string[] = [];
  for (const key of Reflect.ownKeys(value)) {
    out.push(String(key));
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && 'value' in descriptor) out.push(...reachableText(descriptor.value, seen));
  }
  return out;
}

function expectNoToken(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  const views = [
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    JSON.stringify(error),
    String(error),
    (error as Error).stack ?? '',
    ...reachableText(error),
  ];
  for (const text of views) expect(text).not.toContain(SECRET);
}

/** A server that echoes the request (Authorization header included) in every body, as some proxies do. */
function echo(status: number, extra: Record<string, string> = {}) {
  return (r: SeenRequest, res: Parameters<Parameters<RawServer['handle']>[0]>[1]) =>
    send(res, status, JSON.stringify({ error: 'nope', echo: r.headers }), extra);
}

describe('the API token', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  const cases: [string, (s: RawServer) => void, string][] = [
    ['HttpError', (s) => s.handle(echo(500)), 'HttpError'],
    ['AuthError', (s) => s.handle(echo(401)), 'AuthError'],
    ['RateLimitError', (s) => s.handle(echo(429, { 'retry-after': '0' })), 'RateLimitError'],
    ['InvalidCursorError', (s) => s.handle(echo(400)), 'InvalidCursorError'],
    ['NetworkError', (s) => s.handle((_r, res) => res.destroy()), 'NetworkError'],
    ['TimeoutError', (s) => s.handle(() => undefined), 'TimeoutError'],
    ['JsonParseError', (s) => s.handle((r, res) => send(res, 200, `{"echo": "${String(r.headers.authorization)}", `)), 'JsonParseError'],
    ['ValidationError (body)', (s) => s.handle((r, res) => send(res, 200, JSON.stringify({ auth: r.headers.authorization }))), 'ValidationError'],
    ['PaginationError', (s) => s.handle((_r, res) => send(res, 200, '[{"id": 3, "_v": 1, "name": "old"}, {"id": 4, "_v": 1, "name": "old"}]')), 'PaginationError'],
  ];

  it.each(cases)('never appears in a %s: message, stack, properties, body or cause chain', async (_label, arrange, name) => {
    arrange(server);
    const { client } = clientFor(server.baseUrl, { retry: { limit: 1 }, timeoutMs: 100 });
    const call = name === 'InvalidCursorError' || name === 'PaginationError' ? client.list('warehouses', { idStart: '5', limit: 2 }) : client.list('warehouses');
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PosCloudError);
    expect((error as Error).name).toBe(name);
    expectNoToken(error);
  });

  it('is redacted from an error body that echoes it, the rest of the body kept', async () => {
    server.handle(echo(500));
    const { client } = clientFor(server.baseUrl, { retry: 0 });
    const error = (await client.list('warehouses').catch((e: unknown) => e)) as { body: { error: string; echo: Record<string, string> } };
    expect(error.body.echo.authorization).toBe('A|[redacted]');
    expect(error.body.error).toBe('nope');
    expect(error.body.echo['user-agent']).toBe('pos-cloud-mirror tests (dev@example.com)');
  });

  it.each([
    ['with "/" escaped as PHP writes it', 'tok/SECRET+7f3a9c1e5b==', (json: string) => json.replace(/\//g, '\\/')],
    ['holding a character JSON escapes (")', 'tok"SECRET_7f3a9c1e5b', (json: string) => json],
    ['written in \\u escapes', 'tokSECRET7f3a9c1e5b', (json: string) => json.replace(/SECRET/g, '\\u0053ECRET')],
  ])('is redacted from a JSON body that echoes it escaped, %s: the body is kept parsed', async (_label, token, encode) => {
    server.handle((r, res) => send(res, 401, encode(JSON.stringify({ error: 'bad token', echo: r.headers.authorization, [`key ${r.headers.authorization}`]: 1 }))));
    const client = createClient({ baseUrl: server.baseUrl, token, userAgent: 'pos-cloud-mirror tests (dev@example.com)', retry: { limit: 1 } });
    const error = (await client.list('warehouses').catch((e: unknown) => e)) as Error & { body: unknown };
    expect(error.name).toBe('AuthError');
    expect(error.body).toEqual({ error: 'bad token', echo: 'A|[redacted]', 'key A|[redacted]': 1 });
    for (const text of [inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }), JSON.stringify(error), ...reachableText(error)]) {
      expect(text).not.toContain(token);
    }
  });

  it('is redacted from a non-JSON body that echoes it JSON-escaped', async () => {
    const token = 'tok/SECRET+7f3a9c1e5b==';
    server.handle((r, res) => send(res, 500, `upstream said: ${JSON.stringify(r.headers.authorization).replace(/\//g, '\\/')} <html>`));
    const client = createClient({ baseUrl: server.baseUrl, token, userAgent: 'pos-cloud-mirror tests (dev@example.com)', retry: { limit: 1 } });
    const error = (await client.list('warehouses').catch((e: unknown) => e)) as Error & { body: unknown };
    expect(error.body).toBe('upstream said: "A|[redacted]" <html>');
  });

  it('never appears in what a custom fetch throws: its error is replaced by a redacted copy', async () => {
    class BridgeError extends Error {
      override name = 'BridgeError';
      code = 'E_BRIDGE';
      constructor(readonly headers: Headers) {
        super(`bridge refused ${headers.get('authorization') ?? ''}`);
      }
    }
    const fetch: typeof globalThis.fetch = async (input, init) => {
      throw new BridgeError(new Headers((input instanceof Request ? input : new Request(input, init)).headers));
    };
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, userAgent: 'pos-cloud-mirror tests (dev@example.com)', fetch });
    const error = (await client.list('warehouses').catch((e: unknown) => e)) as PosCloudError;
    expect(error).toBeInstanceOf(PosCloudError);
    expect(error.message).toBe('GET /warehouses?limit=100&direction=forward failed in the fetch function: bridge refused A|[redacted]');
    expect(error.cause).toMatchObject({ name: 'BridgeError', code: 'E_BRIDGE', message: 'bridge refused A|[redacted]' });
    expectNoToken(error);
  });

  it('is redacted from a body answered after setToken: the token the request carried is the one looked for', async () => {
    let answer: (() => void) | undefined;
    server.handle((r, res) => {
      answer = () => send(res, 401, JSON.stringify({ error: 'revoked', echo: r.headers.authorization }));
    });
    const { client } = clientFor(server.baseUrl, { retry: 0 });
    const call = client.list('warehouses').catch((e: unknown) => e);
    while (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    client.setToken('a-new-token-0123456789');
    answer();
    const error = await call;
    expect((error as Error).name).toBe('AuthError');
    expectNoToken(error);
  });

  it('never appears in the ValidationError of a bad replacement token', () => {
    const { client } = clientFor(server.baseUrl);
    const error = (() => {
      try {
        client.setToken(`${SECRET}\n`);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expectNoToken(error);
  });

  it('never appears in the ValidationError of bad options', () => {
    const error = (() => {
      try {
        createClient({ baseUrl: 'gopher://x', token: `${SECRET}\u0000`, userAgent: '' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expectNoToken(error);
  });

  it('leaves messages readable: a token is cut out where it appears whole, and one too short to be real is refused', async () => {
    // A one-letter token would be cut out of every word holding that letter ("e[redacted]ample"): refused.
    expect(() => createClient({ baseUrl: 'http://example-pos-cloud.invalid/api', token: 'x', userAgent: 'tests' })).toThrow(/token: must be at least 8 characters/);
    const client = createClient({ baseUrl: 'http://pos.example.invalid/api', token: 'kx81-token', userAgent: 'tests', retry: 0 });
    const error = (await client.list('shops').catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('NetworkError');
    expect(error.message).toContain('GET /shops');
    expect(error.message).not.toContain('[redacted]');
  });
});

