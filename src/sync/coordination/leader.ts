import type { MirrorDb } from '../../db/mirror-db.js';
import type { SyncEnvironment } from './environment.js';
import { campaignWithLease, giveBackLease, leaseHeldByAnother, leaseOwnerId, tryLease } from './lease.js';
import { campaignWithLocks, lockHeldByAnother } from './lock-campaign.js';

/** The name of the Web Lock the leader of database `dbName` holds (one syncing tab or worker per database). */
export function leaderLockName(dbName: string): string {
  return `pos-cloud-mirror-leader:${dbName}`;
}

/** Default lease of the leader where Web Locks are missing (ms). */
export const DEFAULT_LEASE_MS = 10_000;

/** Options of {@link createLeaderElector}. */
export interface LeaderElectorOptions {
  db: MirrorDb;
  /** Lock name: one per database. */
  name: string;
  /** Time, timers and Web Locks (`env.locks`, when the runtime has them: `navigator.locks`). */
  env: SyncEnvironment;
  /** How long a lease lasts without renewal, for the fallback (ms). @default 10_000 */
  leaseMs?: number;
  /**
   * Told each outcome of the campaign: `true` (lead) when this instance holds the lock or the
   * lease, `false` (follow) when another does. An outcome may repeat (every lease renewal tells
   * one): the elector keeps no copy of who leads; its owner does.
   */
  onOutcome: (leader: boolean) => void;
}

/** Elects one syncing instance per database across tabs, windows and workers: a source of lead and follow events. */
export interface LeaderElector {
  /** Starts campaigning; resolves at once (the outcomes arrive through `onOutcome`). */
  start(): void;
  /** Stops campaigning and gives the lock or the lease back; resolves once the lease is given back. Tells no outcome. */
  stop(): Promise<void>;
  /**
   * Resolves once the first campaign since `start()` has an outcome, whichever it is, or once the
   * elector stops; at once when it is not campaigning. With Web Locks the outcome is known as
   * soon as the runtime answers whether the lock is free; with the lease, after the first lease
   * transaction.
   */
  decided(): Promise<void>;
  /**
   * Checks, right before work only the leader may do (a push), that this instance, which its
   * owner believes leads, still does, and resolves to that. With Web Locks, holding the lock is
   * the proof. With the lease, the row is read and renewed in one transaction, so no other
   * instance can take over for a full lease from then on; a lease found taken tells `follow` at
   * once (`onOutcome(false)`).
   */
  confirm(): Promise<boolean>;
  /** True when another instance leads now (holds the lock, or a lease not expired): for work done while not campaigning. */
  heldByAnother(): Promise<boolean>;
}

/**
 * Exactly one syncing instance per database (docs/design.md, decision 10). With Web Locks the leader
 * holds an exclusive lock for as long as it lives; the browser hands the lock to a waiting tab
 * when the leader's tab closes or crashes. Where Web Locks are missing (Node, old browsers) a
 * lease row in `_sync_meta` is taken and renewed in transactions; a follower takes over when the
 * lease has not been renewed for `leaseMs`. A `stop()` followed at once by `start()` leaves no
 * callback of the earlier campaign behind.
 */
export function createLeaderElector(options: LeaderElectorOptions): LeaderElector {
  return new Election(options);
}

/** The {@link LeaderElector} of one instance: its campaigns, one generation each. It holds the campaign's handles, not its outcome. */
class Election implements LeaderElector {
  readonly #options: LeaderElectorOptions;
  readonly #leaseMs: number;
  /** This instance's name in the lease row. */
  readonly #owner: string;
  // Bumped by every start() and stop(): what an earlier campaign still has under way sees it changed and does nothing.
  #generation = 0;
  /** Ends the current campaign's wait for the lock, or its lease renewals; set while campaigning. */
  #endCampaign: (() => void) | undefined;
  /** Gives the lock back (resolves the promise its callback holds); set while the lock is held. */
  #release: (() => void) | undefined;
  #decision: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: LeaderElectorOptions) {
    this.#options = options;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#owner = leaseOwnerId(options.env.now());
  }

  start(): void {
    if (this.#endCampaign) return;
    const gen = ++this.#generation;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#decision = { promise, resolve };
    const isCurrent = () => gen === this.#generation;
    const { env, db, name, onOutcome } = this.#options;
    if (env.locks) {
      const controller = new AbortController();
      this.#endCampaign = () => controller.abort();
      campaignWithLocks(env.locks, name, controller.signal, {
        isCurrent,
        hold: () => {
          const held = new Promise<void>((resolve) => (this.#release = resolve));
          onOutcome(true);
          this.#decide();
          return held;
        },
        follow: () => {
          onOutcome(false);
          this.#decide();
        },
      });
    } else {
      this.#endCampaign = campaignWithLease(db, this.#owner, this.#leaseMs, env, {
        isCurrent,
        outcome: (won) => {
          onOutcome(won);
          this.#decide();
        },
      });
    }
  }

  async stop(): Promise<void> {
    this.#generation++;
    this.#endCampaign?.();
    this.#endCampaign = undefined;
    this.#release?.();
    this.#release = undefined;
    this.#decide();
    this.#decision = undefined;
    // The row names its holder: a lease held by another instance stays.
    if (!this.#options.env.locks) await giveBackLease(this.#options.db, this.#owner);
  }

  decided(): Promise<void> {
    return this.#decision?.promise ?? Promise.resolve();
  }

  async heldByAnother(): Promise<boolean> {
    const { env, db, name } = this.#options;
    if (env.locks) return this.#release === undefined && (await lockHeldByAnother(env.locks, name));
    return leaseHeldByAnother(db, this.#owner, env.now());
  }

  async confirm(): Promise<boolean> {
    const { env, db } = this.#options;
    if (env.locks) return this.#release !== undefined;
    if (!this.#endCampaign) return false;
    const gen = this.#generation;
    const held = await tryLease(db, this.#owner, env.now(), this.#leaseMs);
    if (gen !== this.#generation) return false;
    if (!held) this.#options.onOutcome(false);
    return held;
  }

  /** The first outcome of the campaign is known. */
  #decide(): void {
    this.#decision?.resolve();
  }
}
