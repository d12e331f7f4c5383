import { afterEach, describe, expect, it } from 'vitest';
import { clientThrough, startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('setToken() while a run that still uses the old token is on its way', () => {
  it('syncs with the new token once that run has failed on the old one, instead of pausing', async () => {
    fixture = await startMirrorFixture({ faults: { latencyMs: 300 } });
    let sent!: () => void;
    const underWay = new Promise<void>((resolve) => (sent = resolve));
    let rotated!: () => void;
    const tokenRotated = new Promise<void>((resolve) => (rotated = resolve));
    // The run's first request, its Authorization already written, goes out once the token is rotated.
    const client = clientThrough(
      fixture.sim,
      async () => {
        sent();
        await tokenRotated;
      },
      'revoked-token',
    );
    const mirror = fixture.mirror({ client, collections: ['customers'], categories: false });
    await mirror.start();
    await underWay;
    // The app rotates the token; the request already sent carries the old one and gets a 401.
    mirror.setToken(fixture.sim.token);
    rotated();
    await waitFor(mirror.status, (s) => s.lastSyncAt !== undefined, 5_000);
    expect(mirror.status.value).toMatchObject({ phase: 'idle', lastError: undefined });
  });

  it('of a mirror never started leaves auth-error for idle, not stopped', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ token: 'revoked-token', collections: ['customers'], categories: false });
    await mirror.syncNow().catch(() => undefined);
    expect(mirror.status.value.phase).toBe('auth-error');
    mirror.setToken(fixture.sim.token);
    expect(mirror.status.value).toMatchObject({ phase: 'idle', lastError: undefined });
  });
});
