import { describe, expect, it } from 'vitest';
import { nextCheckpoint, startStopwatch, traversalStart } from '../../../src/sync/pull/checkpoint.js';

describe('nextCheckpoint', () => {
  it('keeps the previous checkpoint when the traversal saw no record', () => {
    expect(nextCheckpoint(1_000, 0, 50_000, 10)).toBe(1_000);
  });

  it('stops at the traversal start minus the skew margin when records are newer than that', () => {
    // A record with a small id edited mid-traversal gets a _v above the start: the next
    // traversal must still see it, so the checkpoint cannot jump to the maximum seen.
    expect(nextCheckpoint(0, 90_000, 80_000, 5_000)).toBe(75_000);
  });

  it('moves just past the highest version seen when that is older than the start', () => {
    expect(nextCheckpoint(0, 10_000, 80_000, 5_000)).toBe(10_001);
  });

  it('never moves backwards', () => {
    expect(nextCheckpoint(100_000, 90_000, 80_000, 5_000)).toBe(100_000);
  });
});

describe('traversalStart', () => {
  const page = (serverTime: number | undefined, versions: number[]) =>
    Object.assign(versions.map((v, i) => ({ id: String(i + 1), _v: v })), { rejected: [], cursor: undefined, done: true, serverTime });

  it('takes the server Date moved back by the first response time', () => {
    expect(traversalStart(page(100_000, [5, 7]), 0, 250)).toBe(99_750);
  });

  it('never puts the start after the server Date: a negative response time (the local clock set back) counts as 0', () => {
    expect(traversalStart(page(100_000, [5, 7]), 0, -600_000)).toBe(100_000);
  });

  it('without a Date header, falls back to a time the server has passed: the highest _v seen, or the previous checkpoint', () => {
    expect(traversalStart(page(undefined, [5, 70, 7]), 10, 250)).toBe(70);
    expect(traversalStart(page(undefined, []), 10, 250)).toBe(10);
  });
});

describe('startStopwatch', () => {
  it('never reports a negative time when the local clock is set back', () => {
    let wall = 1_000_000;
    const elapsed = startStopwatch(() => wall);
    wall -= 600_000;
    expect(elapsed()).toBeGreaterThanOrEqual(0);
    expect(elapsed()).toBeLessThan(60_000);
  });

  it('reports the time an injected clock says passed when that is more than the monotonic clock measured', () => {
    let wall = 1_000_000;
    const elapsed = startStopwatch(() => wall);
    wall += 250;
    expect(elapsed()).toBeGreaterThanOrEqual(250);
  });

  it('measures with the monotonic clock when the wall clock stands still', async () => {
    const elapsed = startStopwatch(() => 5);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(elapsed()).toBeGreaterThanOrEqual(20);
  });
});
