import { describe, expect, it } from 'vitest';
import { joinSignals, untilAborted } from '../../src/sync/caller-signal.js';

describe('joinSignals', () => {
  it('is the sync\'s own signal when the caller gave none', () => {
    const own = new AbortController();
    expect(joinSignals(own.signal, undefined).signal).toBe(own.signal);
  });

  it('aborts with the reason of whichever signal aborts first', () => {
    const own = new AbortController();
    const caller = new AbortController();
    const { signal } = joinSignals(own.signal, caller.signal);
    caller.abort('caller');
    own.abort('own');
    expect(signal.reason).toBe('caller');
  });

  it('is aborted at once when a signal already is, and hears nothing once released', () => {
    expect(joinSignals(new AbortController().signal, AbortSignal.abort('before')).signal.reason).toBe('before');
    const own = new AbortController();
    const { signal, release } = joinSignals(own.signal, new AbortController().signal);
    release();
    own.abort();
    expect(signal.aborted).toBe(false);
  });
});

describe('untilAborted', () => {
  it('settles as the work does while the caller does not abort', async () => {
    await expect(untilAborted(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
    await expect(untilAborted(Promise.reject(new Error('failed')), new AbortController().signal)).rejects.toThrow('failed');
  });

  it('rejects with the caller\'s reason as soon as it aborts, whatever the work does later', async () => {
    const caller = new AbortController();
    let fail: (error: Error) => void = () => undefined;
    const work = new Promise<number>((_, reject) => (fail = reject));
    const waiting = untilAborted(work, caller.signal);
    caller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    // The work's own failure, later, is observed (no unhandled rejection).
    fail(new Error('work failed'));
    await expect(work).rejects.toThrow('work failed');
  });

  it('waits, once the work has begun, for the work to end: nothing it started writes after the call rejected', async () => {
    const caller = new AbortController();
    let finish: () => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = () => resolve('done')));
    let settled = false;
    const call = untilAborted(work, caller.signal, () => true).finally(() => (settled = true));
    caller.abort();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
    finish();
    await expect(call).resolves.toBe('done');
  });
});
