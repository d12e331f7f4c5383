import { describe, expect, it } from 'vitest';
import { createRetryer } from '../../src/client/retryer.js';
import { recordingSleep } from './helpers/recording-sleep.js';

class Transient extends Error {}

describe('createRetryer', () => {
  function setup(tries = 4) {
    const { sleep, delays } = recordingSleep();
    const retried: number[] = [];
    const run = createRetryer({
      tries,
      shouldRetry: (error) => error instanceof Transient,
      delayFor: (_error, failures) => failures * 10,
      sleep,
      onRetry: (_error, failures) => retried.push(failures),
    });
    return { run, delays, retried };
  }

  it('returns the first success and waits between failed tries', async () => {
    const { run, delays, retried } = setup();
    let calls = 0;
    const result = await run(async (n) => {
      calls++;
      if (n < 3) throw new Transient('again');
      return `ok on try ${n}`;
    });
    expect(result).toBe('ok on try 3');
    expect(calls).toBe(3);
    expect(delays).toEqual([10, 20]);
    expect(retried).toEqual([1, 2]);
  });

  it('gives up after the last try with the last error, unchanged', async () => {
    const { run, delays } = setup(3);
    const errors = [new Transient('1'), new Transient('2'), new Transient('3')];
    await expect(run(async (n) => Promise.reject(errors[n - 1]))).rejects.toBe(errors[2]);
    expect(delays).toEqual([10, 20]);
  });

  it('never retries an error shouldRetry refuses (a bug)', async () => {
    const { run, delays } = setup();
    const bug = new TypeError('undefined is not a function');
    let calls = 0;
    await expect(
      run(async () => {
        calls++;
        throw bug;
      }),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
    expect(delays).toEqual([]);
  });

  it('stops with the abort reason when the signal aborts during a try', async () => {
    const { run } = setup();
    const controller = new AbortController();
    const reason = new Error('user left the screen');
    let calls = 0;
    await expect(
      run(async () => {
        calls++;
        controller.abort(reason);
        throw new Transient('would be retried');
      }, controller.signal),
    ).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it('does not start a try when the signal is already aborted', async () => {
    const { run } = setup();
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    await expect(run(async () => ++calls, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(0);
  });
});
