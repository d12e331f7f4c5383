import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';

/** `saveLocal` of a fresh module graph: its own id generator, as another tab or a worker has. */
async function saveLocalOfAnotherTab() {
  vi.resetModules();
  return (await import('../../../src/sync/outbox/local-edit.js')).saveLocal;
}

afterEach(() => vi.restoreAllMocks());

describe('saveLocal in two tabs of one database', () => {
  it('never lets a create take the id of a record another tab created in the same millisecond', async () => {
    const db = new MirrorDb('local-edit-tabs', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    try {
      // Both generators start in the same millisecond on the same random slot: every id collides.
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      const now = Date.UTC(2026, 0, 1);
      const tabs = [await saveLocalOfAnotherTab(), await saveLocalOfAnotherTab()];
      const ids: string[] = [];
      for (const [t, saveLocal] of tabs.entries()) {
        for (let i = 0; i < 30; i++) ids.push(await saveLocal(db, 'warehouses', { name: `tab ${t} shelf ${i}` }, { now }));
      }
      expect(new Set(ids).size).toBe(60);
      expect(await db.warehouses.count()).toBe(60);
      const entries = await db._sync_outbox.toArray();
      expect(entries.filter((e) => e.op === 'create')).toHaveLength(60);
      // Each record is the one its create wrote.
      for (const [t] of tabs.entries()) {
        for (let i = 0; i < 30; i++) expect((await db.warehouses.get(ids[t * 30 + i]!))?.name).toBe(`tab ${t} shelf ${i}`);
      }
    } finally {
      db.close();
    }
  });
});
