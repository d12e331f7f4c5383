import { describe, expect, it } from 'vitest';
import { defaultDbName, parseDbName } from '../../src/db/db-name.js';

describe('database names', () => {
  it('give every written form of an address its own name: scheme, host alias and proxy each count', () => {
    const names = ['http://pos.example/api/v1', 'https://pos.example/api/v1', 'https://pos-alias.example/api/v1', 'https://proxy.example:8443/pos/api/v1'].map((url) =>
      defaultDbName(url),
    );
    expect(new Set(names).size).toBe(4);
    // A trailing slash, a query or a fragment does not.
    expect(defaultDbName('https://pos.example/api/v1/?x=1#y')).toBe(defaultDbName('https://pos.example/api/v1'));
  });

  it('read back the base URL and tenant of a default name, and nothing of another name', () => {
    expect(parseDbName(defaultDbName('https://pos.example/api/v1'))).toEqual({ baseUrl: 'https://pos.example/api/v1', tenant: undefined });
    expect(parseDbName(defaultDbName('http://127.0.0.1:8787/api/v1', 'run#2'))).toEqual({ baseUrl: 'http://127.0.0.1:8787/api/v1', tenant: 'run#2' });
    expect(parseDbName('pos-cloud-mirror:node-sync simulator (small, seed 7)')).toBeUndefined();
    expect(parseDbName('pos-cloud-mirror:ftp://pos.example/api')).toBeUndefined();
    expect(parseDbName('my-own-name')).toBeUndefined();
  });
});
