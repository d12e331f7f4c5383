import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { ValidationError } from '../../src/errors/index.js';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { resolveMirrorOptions, type MirrorOptions } from '../../src/mirror/options.js';
import { DEFAULT_SYNC_GROUPS } from '../../src/sync/cycle/sync-groups.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9/api', token: 't0ken-groups', userAgent: 'pos-cloud-mirror tests (dev@example.com)' });
const base = { client, dbName: 'sync-groups-option', indexedDB: new IDBFactory(), IDBKeyRange };

/** The ValidationError createMirror throws for `options`. */
function refusal(options: unknown): ValidationError {
  try {
    createMirror(options as MirrorOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('createMirror accepted the options');
}

describe('the syncGroups option', () => {
  it('defaults to the reference, catalogue and history groups', () => {
    expect(resolveMirrorOptions(base).syncGroups).toEqual(DEFAULT_SYNC_GROUPS);
  });

  it.each([
    ['a value that is not a list', 'orders first', ['syncGroups'], /must be an array of groups/],
    ['an unknown collection', [{ name: 'a', collections: ['shoes'] }], ['syncGroups.0.collections.0'], /unknown collection "shoes"/],
    ['a group without a name', [{ name: '', collections: [] }], ['syncGroups.0.name'], /name: must be a non-empty string/],
    ['a group named twice', [...DEFAULT_SYNC_GROUPS, { name: 'history', collections: [] }], ['syncGroups.3.name'], /group "history" is named twice/],
    ['a collection in two groups', [...DEFAULT_SYNC_GROUPS, { name: 'again', collections: ['orders'] }], ['syncGroups.3.collections'], /orders is already in group "history"/],
    ['a kept collection in no group', [{ name: 'sales', collections: ['orders', 'order_details'] }], ['syncGroups'], /leaves out products, customers, .*stock_history/],
  ])('refuses %s, naming it', (_label, syncGroups, paths, message) => {
    const error = refusal({ ...base, syncGroups });
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(paths);
    expect(error.message).toMatch(message);
  });

  it('needs only the collections the mirror keeps, a hydration child included', () => {
    const sales = [{ name: 'sales', collections: ['orders', 'order_details'] }] as const;
    expect(resolveMirrorOptions({ ...base, collections: ['orders'], syncGroups: sales }).syncGroups).toEqual(sales);
    expect(refusal({ ...base, collections: ['orders'], syncGroups: [{ name: 'sales', collections: ['orders'] }] }).message).toMatch(/leaves out order_details/);
  });
});
