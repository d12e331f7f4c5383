import { afterEach, describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { startPushFixture, type PushFixture } from '../push/push-fixture.js';

let fx: PushFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

describe('an edit of a record holding a server value the write rules refuse', () => {
  it('is pushed and accepted: the defaulted field the server left null goes out as its default', async () => {
    fx = await startPushFixture();
    await fx.pull('customers');
    const first = (await fx.db.customers.toCollection().first()) as StoredRecord;
    // The server holds a value its read face accepts and a write (a full upsert) would refuse.
    const stored = fx.sim.store.collection('customers').get(first.id)!;
    fx.sim.store.advanceClock(1000);
    fx.sim.store.collection('customers').put({ ...stored, customer_type: null, _v: fx.sim.store.now() }, stored);
    await fx.pull('customers');
    expect((await fx.db.customers.get(first.id))?.customer_type).toBeNull();

    await saveLocal(fx.db, 'customers', { id: first.id, phone_number: '+420 777 000 111' }, { now: Date.UTC(2026, 0, 2) });
    const report = await fx.pusher.push();
    expect(await fx.db._sync_outbox.toArray()).toEqual([]);
    expect(report).toMatchObject({ pushed: 1, rejected: 0 });
    expect(fx.sim.store.get('customers', first.id)).toMatchObject({ phone_number: '+420 777 000 111', customer_type: 0 });
  });
});
