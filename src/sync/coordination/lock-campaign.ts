import type { LockManagerLike } from './environment.js';

/** What a campaign with Web Locks tells its elector. */
export interface LockCampaignHandlers {
  /** False once the elector has stopped or started again: a late callback does nothing. */
  isCurrent(): boolean;
  /** The lock is ours: lead until the returned promise is given back (resolved). */
  hold(): Promise<void>;
  /** Another instance holds the lock: follow, waiting in line. */
  follow(): void;
}

/**
 * Campaigns for the exclusive lock `name`, for as long as `signal` lets it wait. It asks first
 * without waiting (`ifAvailable`), so that a lock held by another instance is known at once (a
 * follower), then waits in line; a lock manager without `ifAvailable` is waited on at once. The
 * runtime hands the lock over when its holder's tab closes or crashes.
 */
export function campaignWithLocks(locks: LockManagerLike, name: string, signal: AbortSignal, handlers: LockCampaignHandlers): void {
  const hold = (): Promise<void> => (handlers.isCurrent() ? handlers.hold() : Promise.resolve());
  const waitInLine = () => {
    if (!handlers.isCurrent()) return;
    handlers.follow();
    void locks.request(name, { signal }, hold).catch(() => undefined);
  };
  locks
    .request(name, { ifAvailable: true }, (lock) => {
      if (lock) return hold();
      waitInLine();
      return Promise.resolve();
    })
    .catch(waitInLine);
}

/** True when another holder has the lock `name` now (asked without waiting). */
export async function lockHeldByAnother(locks: LockManagerLike, name: string): Promise<boolean> {
  let taken = false;
  await locks
    .request(name, { ifAvailable: true }, (lock) => {
      taken = lock === null;
      return Promise.resolve();
    })
    .catch(() => undefined);
  return taken;
}
