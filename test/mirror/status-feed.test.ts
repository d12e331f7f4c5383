import { afterEach, describe, expect, it } from 'vitest';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('status.oldestPendingEditAt', () => {
  it('is the time of the oldest edit not acknowledged, in every tab, until the push acknowledges it', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers'], categories: false });
    const tab = fixture.mirror({ collections: ['customers'], categories: false });
    await mirror.syncNow();
    expect(mirror.status.value.oldestPendingEditAt).toBeUndefined();
    const [first, second] = await mirror.db.customers.limit(2).toArray();

    const before = Date.now();
    await mirror.save('customers', { id: first!.id, note_internal: 'first' });
    const after = Date.now();
    const seen = await waitFor(tab.status, (s) => s.oldestPendingEditAt !== undefined);
    expect(seen.oldestPendingEditAt).toBeGreaterThanOrEqual(before);
    expect(seen.oldestPendingEditAt).toBeLessThanOrEqual(after);
    const oldest = seen.oldestPendingEditAt;

    // A later edit, and another edit of the same record, leave the oldest as it was.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await mirror.save('customers', { id: second!.id, note_internal: 'second' });
    await mirror.save('customers', { id: first!.id, note_internal: 'first, again' });
    await waitFor(mirror.status, (s) => s.pendingPushes === 2);
    expect(mirror.status.value.oldestPendingEditAt).toBe(oldest);

    await mirror.syncNow();
    await waitFor(mirror.status, (s) => s.oldestPendingEditAt === undefined);
    await waitFor(tab.status, (s) => s.oldestPendingEditAt === undefined);
  });

  it('counts an edit the server refused: it is not acknowledged either', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers'], categories: false });
    await mirror.syncNow();
    const refused = await mirror.save('customers', { company: null });
    // A record that passed local validation once but that the server refuses (a stale schema, say).
    await mirror.db.customers.update(refused, { email: 'not-an-e-mail' });
    await mirror.syncNow();
    const status = await waitFor(mirror.status, (s) => s.rejected === 1);
    expect(status.oldestPendingEditAt).toBe((await mirror.pending())[0]!.createdAt);
  });
});

describe('status.lastPulledAt', () => {
  it('says when each collection was last pulled to the end, and keeps it across a restart', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers', 'products'], categories: false });
    expect(mirror.status.value.lastPulledAt).toEqual({});
    const before = Date.now();
    await mirror.syncNow();
    const after = Date.now();
    const status = await waitFor(mirror.status, (s) => Object.keys(s.lastPulledAt).length === 3);
    // `products` brings its price matrix, pulled on its own.
    expect(Object.keys(status.lastPulledAt).sort()).toEqual(['customers', 'product_price_matrix', 'products']);
    for (const at of Object.values(status.lastPulledAt)) {
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }

    // A run of one collection moves its time alone.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await mirror.syncNow({ collections: ['customers'] });
    const moved = await waitFor(mirror.status, (s) => s.lastPulledAt.customers! > status.lastPulledAt.customers!);
    expect(moved.lastPulledAt.products).toBe(status.lastPulledAt.products);

    await mirror.close();
    const restarted = fixture.mirror({ collections: ['customers', 'products'], categories: false });
    await waitFor(restarted.status, (s) => s.lastPulledAt.customers === moved.lastPulledAt.customers && s.lastPulledAt.products === moved.lastPulledAt.products);
  });
});
