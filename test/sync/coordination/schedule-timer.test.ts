import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/sync/coordination/backoff.js';
import { createScheduleTimer } from '../../../src/sync/coordination/schedule-timer.js';
import { fakeEnvironment } from '../controller/fake-controller.js';

describe('createScheduleTimer', () => {
  it('wakes up once after the delay it was set to', async () => {
    const clock = fakeEnvironment();
    let woken = 0;
    const timer = createScheduleTimer(clock.env, () => void woken++);
    timer.set(1_000);
    await clock.advance(999);
    expect(woken).toBe(0);
    await clock.advance(1);
    expect(woken).toBe(1);
    await clock.advance(10_000);
    expect(woken).toBe(1);
  });

  it('keeps one wake-up: a new delay replaces the one set before, and undefined or clear() removes it', async () => {
    const clock = fakeEnvironment();
    let woken = 0;
    const timer = createScheduleTimer(clock.env, () => void woken++);
    timer.set(1_000);
    timer.set(5_000);
    expect(clock.pendingDelays()).toEqual([5_000]);
    timer.set(undefined);
    expect(clock.pendingDelays()).toEqual([]);
    timer.set(1_000);
    timer.clear();
    await clock.advance(10_000);
    expect(woken).toBe(0);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with the failures, up to the maximum, with full jitter above half the base', () => {
    const top = () => 0.999_999;
    expect(backoffDelay(1, { random: top })).toBeCloseTo(1_000, 0);
    expect(backoffDelay(2, { random: top })).toBeCloseTo(2_000, 0);
    expect(backoffDelay(4, { random: top })).toBeCloseTo(8_000, 0);
    expect(backoffDelay(40, { random: top })).toBeCloseTo(300_000, 0);
    expect(backoffDelay(3, { random: () => 0 })).toBe(500);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 250, random: top })).toBeCloseTo(250, 0);
  });
});
