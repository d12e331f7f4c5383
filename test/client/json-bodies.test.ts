import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonParseError, ValidationError } from '../../src/errors/index.js';
import { CORPUS_DIR } from '../json/helpers/corpus.js';
import { clientFor } from './helpers/client-for.js';
import { send, startRawServer, type RawServer } from './helpers/raw-server.js';

const CORPUS = CORPUS_DIR;
const invalidDocuments = readdirSync(CORPUS).filter((f) => f.startsWith('n_')).sort();

describe('response bodies', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  it('finds the 188 invalid documents of the corpus', () => {
    expect(invalidDocuments).toHaveLength(188);
  });

  it('answers every invalid JSON document of the corpus, served byte for byte, with a JsonParseError naming the endpoint', async () => {
    let document = Buffer.alloc(0);
    server.handle((_r, res) => send(res, 200, document));
    const { client } = clientFor(server.baseUrl, { retry: 0 });
    const outcomes: string[] = [];
    for (const name of invalidDocuments) {
      document = readFileSync(join(CORPUS, name));
      const error = await client.list('shops').catch((e: unknown) => e);
      const ok = error instanceof JsonParseError && error.message.startsWith('the response of GET /shops?limit=100&direction=forward ');
      if (!ok) outcomes.push(`${name}: ${String(error)}`);
    }
    expect(outcomes).toEqual([]);
  });

  it('retries a read whose body arrives cut (honest Content-Length), like a dropped connection', async () => {
    let seen = 0;
    server.handle((_r, res) => send(res, 200, ++seen === 1 ? '[{"id": 1, "_v": 1, "na' : '[{"id": 1, "_v": 1, "name": "w"}]'));
    const { client, retries } = clientFor(server.baseUrl);
    const page = await client.list('warehouses');
    expect(page.map((r) => r.id)).toEqual(['1']);
    expect(retries).toHaveLength(1);
  });

  it('gives up on a body that stays invalid with a JsonParseError carrying the position', async () => {
    server.handle((_r, res) => send(res, 200, '[{"id": 1,]'));
    const { client, retries } = clientFor(server.baseUrl, { retry: { limit: 2 } });
    const error = await client.list('warehouses').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonParseError);
    expect((error as JsonParseError).position).toBe(10);
    expect(retries).toHaveLength(2);
  });

  it('does not repeat a creating POST whose answer is cut: the record may exist already', async () => {
    server.handle((_r, res) => send(res, 200, '{"id": 12'));
    const before = server.requests.length;
    const { client } = clientFor(server.baseUrl);
    await expect(client.save('warehouses', { name: 'new' })).rejects.toBeInstanceOf(JsonParseError);
    expect(server.requests.length - before).toBe(1);
  });

  it('gives an empty 200 body a JsonParseError on reads, and undefined on a POST', async () => {
    server.handle((_r, res) => send(res, 200, ''));
    const { client } = clientFor(server.baseUrl);
    await expect(client.get('products', '11')).rejects.toThrow('the response of GET /products/11 has an empty body, expected JSON');
    await expect(client.save('products', { id: '11', name: 'x' })).resolves.toBeUndefined();
  });

  it('counts a body of whitespace only as empty, Unicode whitespace and a BOM included', async () => {
    let body: string | Buffer = '';
    server.handle((_r, res) => send(res, 200, body));
    const { client } = clientFor(server.baseUrl);
    for (const blank of [' \r\n\t', '\f\v', '\u00a0', '\ufeff \u2028']) {
      body = Buffer.from(blank, 'utf8');
      await expect(client.get('products', '11'), JSON.stringify(blank)).rejects.toThrow('has an empty body, expected JSON');
      await expect(client.save('products', { id: '11', name: 'x' })).resolves.toBeUndefined();
    }
    body = ' \u00a0x';
    await expect(client.get('products', '11')).rejects.toThrow(/is not valid JSON/);
  });

  it('keeps __proto__ keys of a body as plain data, never as a prototype', async () => {
    const body =
      '[{"id": 1, "_v": 5, "name": "a", "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}},' +
      ' {"id": 2, "_v": 5, "name": "b", "nested": {"__proto__": {"polluted": true}}}]';
    server.handle((_r, res) => send(res, 200, body));
    const { client } = clientFor(server.baseUrl);
    const page = await client.list('warehouses', { limit: 5 });
    expect(page.map((r) => r.id)).toEqual(['1', '2']);
    const [first, second] = page as unknown as Record<string, unknown>[];
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect((first as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(second?.nested)).toBe(Object.prototype);
    expect((second?.nested as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('returns the good records of a list page and the bad ones in rejected, with their index and issues', async () => {
    server.handle((_r, res) =>
      send(res, 200, '[{"id": 10, "_v": 1, "name": "ok"}, {"id": "x", "_v": 1}, {"id": 30, "_v": -4, "name": "bad v"}, {"id": 40, "_v": 2, "name": "ok"}]'),
    );
    const { client } = clientFor(server.baseUrl);
    const page = await client.list('warehouses', { limit: 10 });
    expect(page.map((r) => r.id)).toEqual(['10', '40']);
    expect(page.rejected.map((r) => [r.collection, r.index])).toEqual([['warehouses', 1], ['warehouses', 2]]);
    expect(page.rejected[0]?.issues[0]?.path).toEqual(['id']);
    expect(page.cursor).toBe('40');
    expect(page.done).toBe(true);
  });

  it('names the endpoint when a single-record body fails its schema', async () => {
    server.handle((_r, res) => send(res, 200, '{"id": "not-an-id", "_v": 1}'));
    const { client } = clientFor(server.baseUrl);
    const error = await client.get('customers', '77').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^the response of GET \/customers\/77 does not match its schema: id: /);
    expect((error as ValidationError).request).toEqual({ method: 'GET', path: '/customers/77' });
  });

  it('names the endpoint when a list body is not an array', async () => {
    server.handle((_r, res) => send(res, 200, '{"records": []}'));
    const { client } = clientFor(server.baseUrl);
    await expect(client.list('orders')).rejects.toThrow('the response of GET /orders?limit=250&direction=backward is not a JSON array of orders');
  });

  it('reads ids beyond 2^53 exactly, whether sent as numbers or strings', async () => {
    server.handle((_r, res) =>
      send(res, 200, '[{"id": 98765432109876543210, "_v": 1, "name": "n"}, {"id": "98765432109876543211", "_v": 1, "name": "s"}]'),
    );
    const { client } = clientFor(server.baseUrl);
    const page = await client.list('warehouses', { limit: 2 });
    expect(page.map((r) => r.id)).toEqual(['98765432109876543210', '98765432109876543211']);
    expect(page.cursor).toBe('98765432109876543211');
  });
});
