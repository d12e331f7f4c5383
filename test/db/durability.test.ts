import { afterEach, describe, expect, it, vi } from 'vitest';
import { durabilityOf } from '../../src/db/durability.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import { removeLocal, saveLocal } from '../../src/sync/outbox/local-edit.js';
import { startPushFixture, type PushFixture } from '../sync/push/push-fixture.js';

/** Every transaction IndexedDB was asked for: its stores, mode and durability. */
interface Asked {
  stores: string[];
  mode: string;
  durability: string;
}

/**
 * Records the transactions asked of IndexedDB from now on. Dexie binds a connection's
 * `transaction` as it opens, so the connections' prototype is watched and the fixture reopened.
 */
async function recordTransactions(fixture: PushFixture): Promise<Asked[]> {
  const asked: Asked[] = [];
  await fixture.db.open();
  const prototype = Object.getPrototypeOf(fixture.db.backendDB()) as IDBDatabase;
  const original = prototype.transaction;
  vi.spyOn(prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores, mode, options) {
    asked.push({ stores: typeof stores === 'string' ? [stores] : [...stores], mode: mode ?? 'readonly', durability: options?.durability ?? 'default' });
    return original.call(this, stores, mode, options);
  });
  await fixture.reopen();
  return asked;
}

let fx: PushFixture | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await fx?.close();
  fx = undefined;
});

describe('the durability each write asks IndexedDB for', () => {
  it('is strict for local edits and their push, relaxed for pulled pages', async () => {
    fx = await startPushFixture();
    const asked = await recordTransactions(fx);
    await fx.pull('customers');
    const pulls = asked.filter((t) => t.mode === 'readwrite' && t.stores.includes('customers'));
    expect(pulls.length).toBeGreaterThan(0);
    expect(new Set(pulls.map((t) => t.durability))).toEqual(new Set(['relaxed']));

    asked.length = 0;
    const [first, second] = (await fx.db.customers.limit(2).toArray()) as StoredRecord[];
    await saveLocal(fx.db, 'customers', { id: first!.id, phone_number: '+420 777 000 222' }, { now: Date.UTC(2026, 0, 2) });
    await removeLocal(fx.db, 'customers', second!.id, { now: Date.UTC(2026, 0, 2) });
    const edits = asked.filter((t) => t.mode === 'readwrite');
    expect(edits).toHaveLength(2);
    expect(edits.map((t) => t.durability)).toEqual(['strict', 'strict']);

    asked.length = 0;
    expect(await fx.pusher.push()).toMatchObject({ pushed: 2 });
    const pushWrites = asked.filter((t) => t.mode === 'readwrite' && t.stores.includes('_sync_outbox'));
    expect(pushWrites.length).toBeGreaterThanOrEqual(2); // the snapshot before the POST, the acknowledgement after it
    expect(new Set(pushWrites.map((t) => t.durability))).toEqual(new Set(['strict']));
  });
});

describe('durabilityOf', () => {
  it('makes strict a read-write transaction over what exists only here', () => {
    expect(durabilityOf(['orders', '_sync_outbox', '_sync_conflicts'], 'readwrite')).toBe('strict');
    expect(durabilityOf(['_sync_conflicts', 'orders', 'order_details'], 'readwrite')).toBe('strict');
    expect(durabilityOf(['_sync_outbox', '_sync_inflight'], 'readwrite')).toBe('strict');
  });

  it('leaves relaxed a pulled page, reads, and writes of what the server holds', () => {
    expect(durabilityOf(['orders', 'order_details', '_sync_outbox', '_sync_quarantine', '_sync_checkpoints'], 'readwrite')).toBe('relaxed');
    expect(durabilityOf(['customers', '_sync_outbox', '_sync_quarantine'], 'readwrite')).toBe('relaxed');
    expect(durabilityOf(['_sync_outbox', '_sync_conflicts'], 'readonly')).toBe('relaxed');
    expect(durabilityOf(['_sync_meta'], 'readwrite')).toBe('relaxed');
  });
});
