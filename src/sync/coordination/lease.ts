import { META_KEYS } from '../../db/meta-keys.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { SyncEnvironment } from './environment.js';
import { inTransaction } from '../../db/in-transaction.js';

/** The `_sync_meta` key of the leader's lease, where Web Locks are missing. */
const LEASE_KEY = META_KEYS.lease;

/** The lease row: who holds it and until when (local ms). */
interface Lease {
  owner: string;
  expiresAt: number;
}

function leaseOf(row: { value?: unknown } | undefined): Lease | undefined {
  return row?.value as Lease | undefined;
}

/**
 * Takes or renews the lease when it is free, expired or already `owner`'s, in one transaction:
 * true when `owner` holds it now, for `leaseMs` from `now`.
 */
function takeLease(db: MirrorDb, owner: string, now: number, leaseMs: number): Promise<boolean> {
  return inTransaction(db, 'rw', db._sync_meta, async (db) => {
    const lease = leaseOf(await db._sync_meta.get(LEASE_KEY));
    if (!lease || lease.owner === owner || lease.expiresAt <= now) {
      await db._sync_meta.put({ key: LEASE_KEY, value: { owner, expiresAt: now + leaseMs } satisfies Lease });
      return true;
    }
    return false;
  });
}

/** A name for a holder of a lease, unique among the tabs, workers and processes of one database (`prefix` says what holds it). */
export function leaseOwnerId(now: number, prefix = ''): string {
  return `${prefix}${now.toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Gives the lease back when `owner` holds it, so a follower takes over at once; failures are ignored. */
export async function giveBackLease(db: MirrorDb, owner: string): Promise<void> {
  await inTransaction(db, 'rw', db._sync_meta, async (db) => {
      if (leaseOf(await db._sync_meta.get(LEASE_KEY))?.owner === owner) await db._sync_meta.delete(LEASE_KEY);
    })
    .catch(() => undefined);
}

/** True when someone other than `owner` holds a lease that has not expired at `now`. */
export async function leaseHeldByAnother(db: MirrorDb, owner: string, now: number): Promise<boolean> {
  const lease = leaseOf(await db._sync_meta.get(LEASE_KEY).catch(() => undefined));
  return lease !== undefined && lease.owner !== owner && lease.expiresAt > now;
}

/** {@link takeLease}, with a failing database counted as not holding it (a closed one cannot hold a lease). */
export async function tryLease(db: MirrorDb, owner: string, now: number, leaseMs: number): Promise<boolean> {
  try {
    return await takeLease(db, owner, now, leaseMs);
  } catch {
    return false;
  }
}

/** What a campaign with the lease tells its elector. */
export interface LeaseCampaignHandlers {
  /** False once the elector has stopped or started again: a late callback does nothing. */
  isCurrent(): boolean;
  /** The outcome of one lease transaction: leading or following. */
  outcome(won: boolean): void;
}

/**
 * Campaigns with the lease: takes or renews it now and every third of `leaseMs`, telling each
 * outcome, until the returned function stops it. A follower takes over once the leader has not
 * renewed for `leaseMs`.
 */
export function campaignWithLease(
  db: MirrorDb,
  owner: string,
  leaseMs: number,
  env: Pick<SyncEnvironment, 'now' | 'setTimeout' | 'clearTimeout'>,
  handlers: LeaseCampaignHandlers,
): () => void {
  let timer: unknown;
  const round = async (): Promise<void> => {
    if (!handlers.isCurrent()) return;
    const won = await tryLease(db, owner, env.now(), leaseMs);
    if (!handlers.isCurrent()) return;
    handlers.outcome(won);
    timer = env.setTimeout(() => void round(), leaseMs / 3);
  };
  void round();
  return () => {
    if (timer !== undefined) env.clearTimeout(timer);
    timer = undefined;
  };
}
