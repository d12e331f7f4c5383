import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFileStorage } from '../../src/node/index.js';
import { STORAGE_READ_INTERVAL_MS } from '../../src/mirror/storage-watch.js';
import type { StorageManagerLike, SyncEnvironment } from '../../src/sync/coordination/environment.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A browser's `navigator.storage`, answering as told and counting the calls. */
function storageManager(answers: { persisted?: boolean; granted?: boolean; usage?: number; failEstimate?: boolean } = {}) {
  const calls = { persisted: 0, persist: 0, estimate: 0 };
  let persisted = answers.persisted ?? false;
  let usage = answers.usage ?? 1_000;
  const manager: StorageManagerLike = {
    async persisted() {
      calls.persisted++;
      return persisted;
    },
    async persist() {
      calls.persist++;
      persisted = answers.granted ?? false;
      return persisted;
    },
    async estimate() {
      calls.estimate++;
      if (answers.failEstimate) throw new DOMException('The operation failed', 'UnknownError');
      return { usage, quota: 5_000_000 };
    },
  };
  return { manager, calls, setUsage: (n: number) => (usage = n) };
}

/** A clock the test moves, with real timers below it: `advance(ms)` runs the timers due by then. */
function clock() {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let seq = 0;
  const env: Partial<SyncEnvironment> = {
    now: () => now,
    setTimeout(fn, ms) {
      // Short waits (the client's retries, the election) run for real; the minute's wait is the test's to move.
      if (ms < 10_000) return setTimeout(fn, ms);
      timers.set(++seq, { at: now + ms, fn });
      return -seq;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number' && handle < 0) timers.delete(-handle);
      else clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };
  return {
    env,
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at > now) continue;
        timers.delete(id);
        t.fn();
      }
    },
  };
}

describe('status.persisted and status.quota', () => {
  it('are undefined where the runtime has no navigator.storage (Node with fake-indexeddb), and persist() resolves false', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.start();
    await mirror.syncNow();
    expect(mirror.status.value.persisted).toBeUndefined();
    expect(mirror.status.value.quota).toBeUndefined();
    expect(await mirror.persist()).toBe(false);
    expect(mirror.status.value).toMatchObject({ persisted: undefined, quota: undefined });
  });

  it('say what the browser says once the mirror starts: start() asks to persist where the storage is not kept', async () => {
    fixture = await startMirrorFixture();
    const storage = storageManager({ granted: true, usage: 4_096 });
    const time = clock();
    const mirror = fixture.mirror({ environment: { ...time.env, storage: storage.manager } });
    expect(mirror.status.value).toMatchObject({ persisted: undefined, quota: undefined });
    await mirror.start();
    // The reading is published first (not kept waiting for an answer Firefox asks the user for), then the grant.
    const status = await waitFor(mirror.status, (s) => s.quota !== undefined && s.persisted === true);
    expect(status.quota).toEqual({ usage: 4_096, quota: 5_000_000, at: 1_000_000 });
    expect(storage.calls).toEqual({ persisted: 1, persist: 1, estimate: 1 });
  });

  it('publish the reading while a request to persist waits for an answer that does not come (Firefox asks the user)', async () => {
    fixture = await startMirrorFixture();
    const storage = storageManager({ granted: true, usage: 4_096 });
    storage.manager.persist = () => new Promise<boolean>(() => undefined);
    const mirror = fixture.mirror({ environment: { ...clock().env, storage: storage.manager } });
    await mirror.start();
    const status = await waitFor(mirror.status, (s) => s.quota !== undefined);
    expect(status).toMatchObject({ persisted: false, quota: { usage: 4_096 } });
  });

  it('are read again at once after the first run, then after runs at most once a minute: a run within the minute is read when the minute is up, once', async () => {
    fixture = await startMirrorFixture();
    const storage = storageManager({ persisted: true, usage: 100 });
    const time = clock();
    // No scheduled run within the test's two minutes: the runs are the test's syncNow() calls.
    const mirror = fixture.mirror({ environment: { ...time.env, storage: storage.manager }, pollIntervalMs: 3_600_000 });
    await mirror.start();
    // Read at start, and again at once when the first sync (what fills the storage) has ended.
    await waitFor(mirror.status, (s) => s.quota !== undefined && s.lastSyncAt !== undefined && s.phase === 'idle');
    await vi.waitFor(() => expect(storage.calls.estimate).toBe(2));
    // Runs within the minute read nothing now; one read waits for the minute to be up.
    storage.setUsage(2_000);
    await mirror.syncNow();
    await mirror.syncNow();
    expect(storage.calls.estimate).toBe(2);
    time.advance(STORAGE_READ_INTERVAL_MS - 1);
    expect(storage.calls.estimate).toBe(2);
    time.advance(1);
    const status = await waitFor(mirror.status, (s) => s.quota?.usage === 2_000);
    expect(status.quota).toEqual({ usage: 2_000, quota: 5_000_000, at: 1_000_000 + STORAGE_READ_INTERVAL_MS });
    expect(storage.calls.estimate).toBe(3);
    // A run more than a minute after the last read reads at once.
    time.advance(STORAGE_READ_INTERVAL_MS);
    storage.setUsage(3_000);
    await mirror.syncNow();
    await waitFor(mirror.status, (s) => s.quota?.usage === 3_000);
    expect(storage.calls.estimate).toBe(4);
    expect(storage.calls.persist).toBe(0);
  });

  it('a navigator.storage.estimate that rejects leaves quota undefined, and sync carries on', async () => {
    fixture = await startMirrorFixture();
    const storage = storageManager({ persisted: false, failEstimate: true });
    const mirror = fixture.mirror({ environment: { storage: storage.manager } });
    await mirror.start();
    const report = await mirror.syncNow();
    expect(report.ran).toBe(true);
    await waitFor(mirror.status, (s) => s.persisted === false && s.phase === 'idle');
    expect(storage.calls.estimate).toBeGreaterThanOrEqual(1);
    expect(mirror.status.value).toMatchObject({ quota: undefined, lastError: undefined, phase: 'idle' });
    expect(mirror.status.value.lastSyncAt).toBeDefined();
  });

  it('persist() asks the browser, and resolves and shows whether the storage is kept', async () => {
    fixture = await startMirrorFixture();
    const storage = storageManager({ persisted: false, granted: false });
    const mirror = fixture.mirror({ environment: { storage: storage.manager } });
    expect(await mirror.persist()).toBe(false);
    expect(mirror.status.value).toMatchObject({ persisted: false, quota: { usage: 1_000, quota: 5_000_000 } });
    expect(storage.calls.persist).toBe(1);
    await mirror.close();
    await expect(mirror.persist()).rejects.toThrow('persist: the mirror is closed');
  });

  it('say persisted, and no quota, for a mirror on a durable file store in Node', async () => {
    fixture = await startMirrorFixture();
    const dataDir = mkdtempSync(join(tmpdir(), 'storage-status-'));
    try {
      const storage = await openFileStorage({ dataDir });
      const mirror = fixture.mirror({ storage, indexedDB: undefined, IDBKeyRange: undefined } as never);
      expect(mirror.status.value).toMatchObject({ persisted: true, quota: undefined });
      expect(await mirror.persist()).toBe(true);
      await mirror.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
