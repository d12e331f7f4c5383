import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { pullCategories } from '../../../src/sync/pull/categories.js';
import type { RejectedLike, SyncClient } from '../../../src/sync/sync-client.js';

const dbs: MirrorDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function node(id: string, v: number, children: unknown[] = []) {
  return { id, _v: v, _d: 0, id_c: '1', _t: 'categories', name: `category ${id}`, id_category_parent: '0', children };
}

/** A client whose category tree is whatever the test last set. */
function clientWith(answer: { roots: unknown[]; rejected?: RejectedLike[] }): SyncClient {
  return {
    categories: async () => Object.assign([...answer.roots], { rejected: answer.rejected ?? [] }),
  } as unknown as SyncClient;
}

describe('pullCategories', () => {
  it('drops the row of a branch refused for a bad descendant once it is fixed, though the root _v did not change', async () => {
    const db = new MirrorDb(`categories-${dbs.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    dbs.push(db);
    const answer: { roots: unknown[]; rejected?: RejectedLike[] } = { roots: [node('10', 1, [node('20', 1)])] };
    await pullCategories(db, clientWith(answer));
    answer.roots = [];
    answer.rejected = [{ index: 0, raw: node('10', 1, [{ ...node('20', 2), _v: 'not a version' }]), issues: [{ path: ['children', 0, '_v'], message: 'expected a number' }] }];
    await pullCategories(db, clientWith(answer));
    expect(await db._sync_quarantine.count()).toBe(1);
    answer.roots = [node('10', 1, [node('20', 3)])];
    answer.rejected = [];
    await pullCategories(db, clientWith(answer));
    expect((await db.categories.get('20'))?._v).toBe(3);
    expect(await db._sync_quarantine.toArray()).toEqual([]);
  });

  it('drops the row of a refused branch never stored locally once the tree no longer has it', async () => {
    const db = new MirrorDb(`categories-${dbs.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    dbs.push(db);
    const answer: { roots: unknown[]; rejected?: RejectedLike[] } = {
      roots: [node('30', 1)],
      rejected: [{ index: 0, raw: node('10', 1, [{ ...node('20', 1), _v: 'not a version' }]), issues: [{ path: ['children', 0, '_v'], message: 'expected a number' }] }],
    };
    await pullCategories(db, clientWith(answer));
    expect(await db._sync_quarantine.count()).toBe(1);
    answer.rejected = [];
    await pullCategories(db, clientWith(answer));
    expect(await db._sync_quarantine.toArray()).toEqual([]);
  });

  it('flattens the tree, and removes the nodes the tree no longer has', async () => {
    const db = new MirrorDb(`categories-${dbs.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    dbs.push(db);
    const answer: { roots: unknown[]; rejected?: RejectedLike[] } = { roots: [node('10', 1, [node('20', 1)]), node('30', 1)] };
    expect(await pullCategories(db, clientWith(answer))).toBe(3);
    expect((await db.categories.get('20'))?.id_category_parent).toBe('10');
    answer.roots = [node('30', 2)];
    await pullCategories(db, clientWith(answer));
    expect((await db.categories.toCollection().primaryKeys()).sort()).toEqual(['30']);
  });

  it('quarantines a refused branch and keeps its nodes, instead of removing them as gone', async () => {
    const db = new MirrorDb(`categories-${dbs.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    dbs.push(db);
    const answer: { roots: unknown[]; rejected?: RejectedLike[] } = { roots: [node('10', 1, [node('20', 1)]), node('30', 1)] };
    await pullCategories(db, clientWith(answer));
    const badBranch = node('10', 2, [{ ...node('20', 2), _v: 'not a version' }]);
    answer.roots = [node('30', 2)];
    answer.rejected = [{ index: 0, raw: badBranch, issues: [{ path: ['children', 0, '_v'], message: 'expected a number' }] }];
    await pullCategories(db, clientWith(answer), undefined, () => 1234);
    expect((await db.categories.toCollection().primaryKeys()).sort()).toEqual(['10', '20', '30']);
    const quarantine = await db._sync_quarantine.toArray();
    expect(quarantine).toMatchObject([{ collection: 'categories', id: '10', record: badBranch, at: 1234 }]);
  });

  it('keeps one quarantine row for a refused branch over repeated runs, and drops it once the branch reads well', async () => {
    const db = new MirrorDb(`categories-${dbs.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    dbs.push(db);
    const badBranch = node('10', 2, [{ ...node('20', 2), _v: 'not a version' }]);
    const answer: { roots: unknown[]; rejected?: RejectedLike[] } = {
      roots: [node('30', 1)],
      rejected: [{ index: 0, raw: badBranch, issues: [{ path: ['children', 0, '_v'], message: 'expected a number' }] }],
    };
    for (let i = 0; i < 3; i++) await pullCategories(db, clientWith(answer), undefined, () => 1000 + i);
    expect(await db._sync_quarantine.toArray()).toMatchObject([{ key: 'categories:10', collection: 'categories', id: '10', at: 1002 }]);
    answer.roots = [node('10', 3, [node('20', 3)]), node('30', 1)];
    answer.rejected = [];
    await pullCategories(db, clientWith(answer));
    expect(await db._sync_quarantine.count()).toBe(0);
    expect((await db.categories.toCollection().primaryKeys()).sort()).toEqual(['10', '20', '30']);
  });
});
