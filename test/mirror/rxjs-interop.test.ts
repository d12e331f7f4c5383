import { filter, firstValueFrom, from, map, take, tap, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** What Vue's and Svelte's stores, and RxJS users, build on: `from()` over Symbol.observable. */
describe('RxJS from() over the mirror', () => {
  it('from(mirror.live(...)) emits the query result and again after each change', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    const names$ = from(mirror.live(async () => (await mirror.db.customers.toArray()).filter((c) => c.firstname === 'Rxa').length));
    const values: number[] = [];
    const seen = firstValueFrom(
      names$.pipe(
        tap((n) => values.push(n)),
        take(3),
        toArray(),
      ),
    );
    // Each save after the value before it was emitted: two saves in one go may show as one change.
    await vi.waitFor(() => expect(values).toEqual([0]));
    await mirror.save('customers', { company: null, firstname: 'Rxa' });
    await vi.waitFor(() => expect(values).toEqual([0, 1]));
    await mirror.save('customers', { company: null, firstname: 'Rxa' });
    expect(await seen).toEqual([0, 1, 2]);
  });

  it('from(mirror.status) gives the current status at once and follows a sync', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    expect(await firstValueFrom(from(mirror.status).pipe(map((s) => s.phase)))).toBe('idle');
    const synced = firstValueFrom(from(mirror.status).pipe(filter((s) => s.lastSyncAt !== undefined)));
    const phases = firstValueFrom(from(mirror.progress).pipe(filter((p) => p.collections.shops?.done === true)));
    await mirror.syncNow();
    expect((await synced).lastError).toBeUndefined();
    expect((await phases).collections.shops?.records).toBe(fixture.sim.store.count('shops'));
  });
});
