import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { ValidationError } from '../../src/errors/index.js';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { MIRROR_DEFAULTS, resolveMirrorOptions, type MirrorOptions } from '../../src/mirror/options.js';
import { COLLECTIONS } from '../../src/schema/collections.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9/api', token: 't0ken-options', userAgent: 'pos-cloud-mirror tests (dev@example.com)' });
const base = { client, dbName: 'mirror-options', indexedDB: new IDBFactory(), IDBKeyRange };

/** The issue paths of the ValidationError that createMirror throws for `options`. */
function refusal(options: unknown): string[] {
  try {
    createMirror(options as MirrorOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^createMirror: /);
    return (error as ValidationError).issues.map((i) => i.path.join('.'));
  }
  throw new Error(`createMirror accepted ${JSON.stringify(options)}`);
}

describe('createMirror options', () => {
  it('refuses options that are not an object', () => {
    for (const options of [undefined, null, 'http://x', []]) expect(refusal(options)).toEqual(['']);
  });

  it.each([
    ['a baseUrl that is not a URL', { baseUrl: 'not a url' }, ['baseUrl']],
    ['a baseUrl that is not http(s)', { baseUrl: 'ftp://host/api' }, ['baseUrl']],
    ['a client that is not one', { client: 5 }, ['client']],
    ['an empty dbName', { dbName: '' }, ['dbName']],
    ['categories that is not a boolean', { categories: 'no' }, ['categories']],
    ['a batch that is not an object', { batch: 5 }, ['batch']],
    ['batch limits out of range', { batch: { maxRecords: 0, maxBytes: 1.5 } }, ['batch.maxRecords', 'batch.maxBytes']],
    ['indexes of an unknown collection, and not a list', { indexes: { shoes: ['size'], products: 'barcode' } }, ['indexes.shoes', 'indexes.products']],
    ['a fractional pageLimit', { pageLimit: 2.5 }, ['pageLimit']],
    ['pagesPerTransaction of 0', { pagesPerTransaction: 0 }, ['pagesPerTransaction']],
    ['pagesPerTransaction above 64', { pagesPerTransaction: 65 }, ['pagesPerTransaction']],
    ['a fractional pagesPerTransaction', { pagesPerTransaction: 1.5 }, ['pagesPerTransaction']],
    ['a negative skew margin', { skewMarginMs: -1 }, ['skewMarginMs']],
    ['a lease of 0 (the campaign would spin)', { leaderLeaseMs: 0 }, ['leaderLeaseMs']],
    ['an environment that is not an object', { environment: 'test' }, ['environment']],
    ['unknown options, each by name', { pollInterval: 5, fetchh: () => undefined }, ['pollInterval', 'fetchh']],
    ['client options beside a client (they would be ignored)', { fetch: () => undefined, retry: 2 }, ['fetch', 'retry']],
  ])('refuses %s, naming it', (_label, extra, paths) => {
    expect(refusal({ ...base, ...extra })).toEqual(paths);
  });

  it('refuses delays a timer cannot wait (setTimeout fires at once beyond 2^31 - 1 ms)', () => {
    const long = 2 ** 31;
    expect(refusal({ ...base, pollIntervalMs: long, leaderLeaseMs: long })).toEqual(['pollIntervalMs', 'leaderLeaseMs']);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:9/api', token: 't', userAgent: 'u', timeoutMs: long })).toThrow(/timeoutMs: must be a number of ms > 0 and at most 2147483647/);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:9/api', token: 't', userAgent: 'u', retry: { maxDelayMs: long } })).toThrow(/retry\.maxDelayMs: must be a number of ms >= 0/);
  });

  it('accepts the limits themselves, and a pageLimit above a collection maximum (each collection clamps it)', async () => {
    const mirror = createMirror({ ...base, pollIntervalMs: 2 ** 31 - 1, reconcileIntervalMs: 0, leaderLeaseMs: 1, pageLimit: 5000, pagesPerTransaction: 64, categories: false, indexes: { products: ['barcode'] } });
    await mirror.close();
    // The sweep interval is compared with elapsed time, never put in a timer: a 30-day sweep is fine.
    await createMirror({ ...base, reconcileIntervalMs: 30 * 86_400_000 }).close();
    expect(refusal({ ...base, reconcileIntervalMs: -1 })).toEqual(['reconcileIntervalMs']);
  });

  it('passes fetch, timeoutMs and retry on to the client it makes when none is given', async () => {
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const mirror = createMirror({
      baseUrl: 'http://pos.example.invalid/api',
      token: 'token-of-the-test',
      userAgent: 'pos-cloud-mirror tests (dev@example.com)',
      dbName: 'mirror-options-forwarded',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      fetch,
      timeoutMs: 5_000,
      retry: 0,
      collections: ['shops'],
      categories: false,
    });
    await mirror.syncNow();
    expect(seen[0]).toMatch(/^http:\/\/pos\.example\.invalid\/api\/shops\?/);
    await mirror.close();
  });

  it('refuses the options it passes on as createClient refuses them', () => {
    const connection = { baseUrl: 'http://pos.example.invalid/api', token: 'token-of-the-test', userAgent: 'tests', indexedDB: new IDBFactory(), IDBKeyRange };
    expect(() => createMirror({ ...connection, retry: { limit: -1 } })).toThrow(/retry\.limit/);
    expect(() => createMirror({ ...connection, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('resolves every option left out to its default of MIRROR_DEFAULTS, and keeps what was given as given', () => {
    const resolved = resolveMirrorOptions(base);
    const { latestOrdersIntervalMs: _watchOnly, ...defaults } = MIRROR_DEFAULTS;
    expect(resolved).toMatchObject(defaults);
    expect(resolved.collections).toEqual(COLLECTIONS);
    expect(resolved.client).toBe(client);
    expect(resolved.indexedDB).toBe(base.indexedDB);
    expect(resolveMirrorOptions({ ...base, batch: { maxRecords: 5 } }).batch).toEqual({ ...MIRROR_DEFAULTS.batch, maxRecords: 5 });
    expect(resolveMirrorOptions({ baseUrl: 'http://pos.example.invalid/api', token: 'token-of-the-test', userAgent: 'tests', tenant: '7' }).dbName).toBe(
      'pos-cloud-mirror:http://pos.example.invalid/api#7',
    );
  });
});
