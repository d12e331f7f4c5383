import { describe, expect, it, vi } from 'vitest';
import { collectRecords, collectRecordsInSlices } from '../../src/client/read-body.js';
import { createTimeSlicer, yieldToEventLoop } from '../../src/schema/time-slicer.js';

/** A clock that moves only when told. */
function manualClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('time slicer', () => {
  it('is due once a slice has run its budget, and starts a new slice after a turn or a restart', async () => {
    const clock = manualClock();
    let turns = 0;
    const slicer = createTimeSlicer({ budgetMs: 25, now: clock.now, yieldNow: async () => void turns++ });
    clock.advance(24);
    expect(slicer.due()).toBe(false);
    clock.advance(1);
    expect(slicer.due()).toBe(true);
    await slicer.yield();
    expect([slicer.due(), turns, slicer.yields]).toEqual([false, 1, 1]);
    clock.advance(30);
    slicer.restart();
    expect([slicer.due(), turns]).toEqual([false, 1]);
  });

  it('gives the event loop a turn: a timer set before it runs first', async () => {
    // setImmediate here (Node); a browser takes scheduler.yield or a message to itself.
    const order: string[] = [];
    setImmediate(() => order.push('timer'));
    await yieldToEventLoop();
    order.push('after the turn');
    expect(order).toEqual(['timer', 'after the turn']);
  });

  it('gives the turn even when its message to itself is never delivered (WebKit lost it with its network process: a page read hung for ever)', async () => {
    // A browser without scheduler.yield or setImmediate (WebKit), whose message is lost.
    const lost = class {
      port1 = { onmessage: null as unknown, close: () => undefined };
      port2 = { postMessage: () => undefined };
    };
    vi.stubGlobal('setImmediate', undefined);
    vi.stubGlobal('MessageChannel', lost);
    try {
      const turn = yieldToEventLoop().then(() => 'turn');
      const never = new Promise((resolve) => setTimeout(resolve, 1_000, 'no turn within 1 s'));
      expect(await Promise.race([turn, never])).toBe('turn');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('records read in slices', () => {
  const raws = [
    ...Array.from({ length: 40 }, (_, i) => ({ id: i + 1, _v: i + 1, _d: 0, name: `shop ${i + 1}` })),
    { id: 'not an id', _v: 1 },
  ];

  it('give the records and the refusals of a read in one go, with a turn whenever a slice has run its time', async () => {
    const clock = manualClock();
    const slicer = createTimeSlicer({ budgetMs: 10, now: () => clock.advance(1), yieldNow: async () => undefined });
    const skip = (index: number) => index === 3;
    const sliced = await collectRecordsInSlices('shops', raws, slicer, skip);
    expect(sliced).toEqual(collectRecords('shops', raws, skip));
    expect(sliced.records).toHaveLength(39);
    expect(sliced.rejected.map((r) => r.index)).toEqual([40]);
    // Each clock reading is 1 ms later: one per record checked, one per new slice; 10 ms slices.
    expect(slicer.yields).toBe(4);
  });

  it('take no turn while the slice lasts', async () => {
    const slicer = createTimeSlicer({ budgetMs: 10, now: () => 0, yieldNow: () => Promise.reject(new Error('no turn expected')) });
    await collectRecordsInSlices('shops', raws, slicer);
    expect(slicer.yields).toBe(0);
  });
});
