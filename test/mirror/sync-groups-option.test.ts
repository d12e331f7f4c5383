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
  it('defaults to the reference, catalogue, recent and history groups', () => {
    expect(resolveMirrorOptions(base).syncGroups).toEqual(DEFAULT_SYNC_GROUPS);
  });

  it.each([
    ['a value that is not a list', 'orders first', ['syncGroups'], /must be an array of groups/],
    ['an unknown collection', [{ name: 'a', collections: ['shoes'] }], ['syncGroups.0.collections.0'], /unknown collection "shoes"/],
    ['a group without a name', [{ name: '', collections: [] }], ['syncGroups.0.name'], /name: must be a non-empty string/],
    ['a group named twice', [...DEFAULT_SYNC_GROUPS, { name: 'history', collections: [] }], ['syncGroups.4.name'], /group "history" is named twice/],
    ['a collection in two groups', [...DEFAULT_SYNC_GROUPS, { name: 'again', collections: ['orders'] }], ['syncGroups.4.collections'], /orders is already in group "history"/],
    ['days that are not a positive number', [{ ...DEFAULT_SYNC_GROUPS[2]!, days: 0 }, ...DEFAULT_SYNC_GROUPS.filter((g) => g.name !== 'recent')], ['syncGroups.0.days'], /days: must be a positive number of days/],
    ['a collection in two groups with days', [...DEFAULT_SYNC_GROUPS.slice(0, 3), { name: 'week', collections: ['orders'], days: 7 }, DEFAULT_SYNC_GROUPS[3]!], ['syncGroups.3.collections'], /orders is already in group "recent" with days: a collection may be in one group with days/],
    ['a group with days after the one that pulls it whole', [...DEFAULT_SYNC_GROUPS, { name: 'late', collections: ['transactions'], days: 1 }], ['syncGroups.4.collections'], /transactions is pulled whole by group "history" before: a group with days comes before/],
    ['days on a collection not traversed newest first', [{ name: 'new products', collections: ['products'], days: 1 }, ...DEFAULT_SYNC_GROUPS], ['syncGroups.0.days'], /products is not traversed newest first: only orders, order_details, .* may be in a group with days/],
    ['a collection only in a group with days', [...DEFAULT_SYNC_GROUPS.slice(0, 3), { ...DEFAULT_SYNC_GROUPS[3]!, collections: ['order_details', 'transactions', 'shifts', 'stockup', 'stock_history'] }], ['syncGroups.2.collections'], /orders is only in group "recent", bounded by days: it needs a later group without days/],
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
