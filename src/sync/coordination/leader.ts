import type { MirrorDb } from '../../db/mirror-db.js';
import type { SyncEnvironment } from './environment.js';
import { campaignWithLease, giveBackLease, leaseHeldByAnother, tryLease } from './lease.js';
import { campaignWithLocks, lockHeldByAnother } from './lock-campaign.js';

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
  /** Called with true when this instance becomes the leader, false when it stops being one. */
  onChange: (leader: boolean) => void;
}

/** Elects one syncing instance per database across tabs, windows and workers. */
export interface LeaderElector {
  readonly isLeader: boolean;
  /** Starts campaigning; resolves at once (leadership arrives through `onChange`). */
  start(): void;
  /** Steps down (`onChange(false)` at once) and stops campaigning; resolves once the lease is given back. */
  stop(): Promise<void>;
  /**
   * Resolves once the first campaign since `start()` has an outcome, whichever it is (`isLeader`
   * tells which), or once the elector stops; at once when it is not campaigning. With Web Locks
   * the outcome is known as soon as the runtime answers whether the lock is free; with the lease,
   * after the first lease transaction.
   */
  decided(): Promise<void>;
  /**
   * Checks, right before work only the leader may do (a push), that this instance still leads,
   * and resolves to that. With Web Locks, holding the lock is the proof. With the lease, the row
   * is read and renewed in one transaction, so no other instance can take over for a full lease
   * from then on; a lease found taken steps down at once (`onChange(false)`).
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

/** The {@link LeaderElector} of one instance: its campaigns, one generation each. */
class Election implements LeaderElector {
  readonly #options: LeaderElectorOptions;
  readonly #leaseMs: number;
  /** This instance's name in the lease row. */
  readonly #owner: string;
  #leader = false;
  #running = false;
  // Bumped by every start() and stop(): what an earlier campaign still has under way sees it changed and does nothing.
  #generation = 0;
  /** Ends the current campaign's wait for the lock, or its lease renewals. */
  #endCampaign: (() => void) | undefined;
  /** Gives the lock back (resolves the promise its callback holds). */
  #release: (() => void) | undefined;
  #decision: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: LeaderElectorOptions) {
    this.#options = options;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#owner = `${options.env.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  }

  get isLeader(): boolean {
    return this.#leader;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    const gen = ++this.#generation;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#decision = { promise, resolve };
    const isCurrent = () => this.#running && gen === this.#generation;
    const { env, db, name } = this.#options;
    if (env.locks) {
      const controller = new AbortController();
      this.#endCampaign = () => controller.abort();
      campaignWithLocks(env.locks, name, controller.signal, {
        isCurrent,
        hold: () => {
          this.#become(true);
          this.#decide();
          return new Promise<void>((resolve) => (this.#release = resolve));
        },
        follow: () => this.#decide(),
      });
    } else {
      this.#endCampaign = campaignWithLease(db, this.#owner, this.#leaseMs, env, {
        isCurrent,
        outcome: (won) => {
          this.#become(won);
          this.#decide();
        },
      });
    }
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#generation++;
    this.#endCampaign?.();
    this.#endCampaign = undefined;
    this.#release?.();
    this.#release = undefined;
    this.#decide();
    this.#decision = undefined;
    const held = this.#leader;
    this.#become(false);
    if (!this.#options.env.locks && held) await giveBackLease(this.#options.db, this.#owner);
  }

  decided(): Promise<void> {
    return this.#decision?.promise ?? Promise.resolve();
  }

  async heldByAnother(): Promise<boolean> {
    if (this.#leader) return false;
    const { env, db, name } = this.#options;
    if (env.locks) return lockHeldByAnother(env.locks, name);
    return leaseHeldByAnother(db, this.#owner, env.now());
  }

  async confirm(): Promise<boolean> {
    if (!this.#running || !this.#leader) return false;
    const { env, db } = this.#options;
    if (env.locks) return true;
    const gen = this.#generation;
    const held = await tryLease(db, this.#owner, env.now(), this.#leaseMs);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() may have run while the lease was tried
    if (!this.#running || gen !== this.#generation) return false;
    this.#become(held);
    return held;
  }

  #become(next: boolean): void {
    if (this.#leader === next) return;
    this.#leader = next;
    this.#options.onChange(next);
  }

  /** The first outcome of the campaign is known. */
  #decide(): void {
    this.#decision?.resolve();
  }
}
