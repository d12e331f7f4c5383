/**
 * Who syncs and when: one leader per database across tabs, windows and workers with Web Locks or
 * a lease (`leader.ts`, `lock-campaign.ts`, `lease.ts`; between Node processes, the durable store's
 * lock lets one process at a time open the database at all); the schedule's timer, which holds its wake-up and nothing else, and the backoff after failures
 * (`schedule-timer.ts`, `backoff.ts`: when to run is the sync state's to say); and the
 * runtime's globals (time, timers, connectivity, visibility, locks, the Storage API) behind one interface that
 * tests replace (`environment.ts`).
 */
export { defaultEnvironment, type LockManagerLike, type StorageManagerLike, type SyncEnvironment } from './environment.js';
export { createLeaderElector, DEFAULT_LEASE_MS, leaderLockName, type LeaderElector, type LeaderElectorOptions } from './leader.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
export { giveBackLease, leaseOwnerId, tryLease } from './lease.js';
export { createScheduleTimer, type ScheduleTimer } from './schedule-timer.js';
