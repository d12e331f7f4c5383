import { afterEach, describe, expect, it } from 'vitest';
import { fakeController, flush, quotaExceeded } from './fake-controller.js';

let made: ReturnType<typeof fakeController> | undefined;
const controllerWith = (opts?: Parameters<typeof fakeController>[0]) => (made = fakeController(opts));
afterEach(async () => {
  await made?.controller.close();
  made = undefined;
});

describe('createSyncController, with a fake cycle', () => {
  describe('a storage-error pause', () => {
    // Regression: setToken() resumed the schedule whatever paused it, so a mirror paused for
    // storage-error synced again on its schedule while its state still said storage-error.
    it('is not resumed by setToken(): no run on the schedule, and the phase stays storage-error', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 1_000 });
      cycle.runs(() => {
        throw quotaExceeded();
      });
      await controller.start();
      await flush();
      expect(cycle.calls.run).toBe(1);
      expect(feed.status.value.phase).toBe('storage-error');
      cycle.runs(() => undefined);
      controller.setToken('a new token');
      await flush();
      await clock.advance(600_000);
      expect(cycle.calls.run).toBe(1);
      expect(feed.status.value.phase).toBe('storage-error');
    });
  });
});
