import { describe, expect, it } from 'vitest';
import { awaitsNetwork, CONNECTIVITY_RECHECK_MS, isScheduled, nextRunIn } from '../../../src/sync/controller/next-run.js';
import { initialState, type SyncState } from '../../../src/sync/controller/sync-state.js';

const leading: SyncState = { ...initialState(true), lifecycle: 'running', election: 'leader' };
const top = { random: () => 0.999_999 };

describe('nextRunIn', () => {
  it('is the poll interval after a run of a started leader, online and not paused', () => {
    expect(isScheduled(leading)).toBe(true);
    expect(nextRunIn(leading, 60_000, false)).toBe(60_000);
  });

  it('is the backoff of the failures in a row after a failed run', () => {
    expect(nextRunIn({ ...leading, run: 'failed', failures: 3 }, 60_000, true, top)).toBeCloseTo(4_000, 0);
  });

  it('is a second look at connectivity while a started leader, not paused, is offline', () => {
    const offline = { ...leading, online: false };
    expect(isScheduled(offline)).toBe(false);
    expect(awaitsNetwork(offline)).toBe(true);
    expect(nextRunIn(offline, 60_000, true)).toBe(CONNECTIVITY_RECHECK_MS);
  });

  it('is none while following, paused, or not started, offline or not', () => {
    for (const s of [
      { ...leading, election: 'follower' as const },
      { ...leading, pause: 'storage-error' as const },
      { ...leading, pause: 'auth-error' as const },
      { ...leading, election: 'follower' as const, online: false },
      { ...leading, pause: 'auth-error' as const, online: false },
      { ...leading, lifecycle: 'stopping' as const },
      initialState(true),
    ]) {
      expect(isScheduled(s)).toBe(false);
      expect(nextRunIn(s, 60_000, false)).toBeUndefined();
    }
  });
});
