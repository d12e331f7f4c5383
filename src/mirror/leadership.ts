import type { LeaderElector, SyncEnvironment } from '../sync/coordination/index.js';

/** How long `syncNow()` after `start()` waits for the election to be decided (ms). */
export const ELECTION_WAIT_MS = 5_000;

/**
 * Only the leader pushes. Checked right before each push and each batch POST of it: a started
 * tab that lost the lease (throttled, say) steps down here instead of posting what the new leader
 * posts too; a mirror not started (or stopped) pushes only when no other tab leads, since that one
 * pushes the same outbox. Throws an `AbortError` when this instance may not push.
 */
export async function confirmLead(elector: LeaderElector, running: boolean, signal: AbortSignal | undefined): Promise<void> {
  if (running && !(await elector.confirm())) throw signal?.aborted ? signal.reason : new DOMException('not the leader any more', 'AbortError');
  if (!running && (await elector.heldByAnother())) throw new DOMException('another tab or worker leads and pushes', 'AbortError');
}

/** Waits, at most {@link ELECTION_WAIT_MS}, until the first campaign since `start()` has an outcome. */
export async function electionDecided(elector: LeaderElector, env: SyncEnvironment): Promise<void> {
  let timer: unknown;
  await Promise.race([elector.decided(), new Promise<void>((resolve) => (timer = env.setTimeout(resolve, ELECTION_WAIT_MS)))]);
  env.clearTimeout(timer);
}
