/**
 * Who syncs and when: one leader per database across tabs, windows and workers with Web Locks or
 * a lease (`leader.ts`, `lock-campaign.ts`, `lease.ts`; between Node processes, the durable store's
 * lock lets one process at a time open the database at all); the schedule of runs with backoff after failures (`scheduler.ts`); and the
 * runtime's globals (time, timers, connectivity, visibility, locks) behind one interface that
 * tests replace (`environment.ts`).
 */
export { defaultEnvironment, type LockManagerLike, type SyncEnvironment } from './environment.js';
export { createLeaderElector, DEFAULT_LEASE_MS, type LeaderElector, type LeaderElectorOptions } from './leader.js';
export { giveBackLease, tryLease } from './lease.js';
export { createScheduler, type FailureAction, type Scheduler, type SchedulerOptions } from './scheduler.js';
