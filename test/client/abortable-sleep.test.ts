import { describe, expect, it } from 'vitest';
import { abortableSleep } from '../../src/client/abortable-sleep.js';

describe('abortableSleep', () => {
  it('resolves after the wait', async () => {
    await expect(abortableSleep(1, undefined)).resolves.toBeUndefined();
  });

  it('rejects with the reason as soon as the signal aborts, long before the wait is over', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = abortableSleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects at once on an already aborted signal', async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
