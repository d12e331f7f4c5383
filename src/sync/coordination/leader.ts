import type { MirrorDb } from '../../db/mirror-db.js';
import type { LockManagerLike, SyncEnvironment } from './environment.js';

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
 * Exactly one syncing instance per database (DESIGN.md decision 10). With Web Locks the leader
 * holds an exclusive lock for as long as it lives; the browser hands the lock to a waiting tab
 * when the leader's tab closes or crashes. Where Web Locks are missing (Node, old browsers) a
 * lease row in `_sync_meta` is taken and renewed in transactions; a follower takes over when the
 * lease has not been renewed for `leaseMs`. A `stop()` followed at once by `start()` leaves no
 * callback of the earlier campaign behind.
 */
export function createLeaderElector(options: LeaderElectorOptions): LeaderElector {
  const { env, db } = options;
  const now = env.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const owner = `${now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let leader = false;
  let running = false;
  // Bumped by every start() and stop(): what an earlier campaign still has under way sees it changed and does nothing.
  let generation = 0;
  let controller: AbortController | undefined;
  let release: (() => void) | undefined;
  let timer: unknown;
  let decision: { promise: Promise<void>; resolve: () => void } | undefined;

  function become(next: boolean): void {
    if (leader === next) return;
    leader = next;
    options.onChange(next);
  }

  /** The campaign of generation `gen` is the one running. */
  const isCurrent = (gen: number) => running && gen === generation;

  /** The first outcome of the campaign is known. */
  function decide(): void {
    decision?.resolve();
  }

  function startWithLocks(locks: LockManagerLike, gen: number): void {
    controller = new AbortController();
    const signal = controller.signal;
    const hold = (): Promise<void> => {
      if (!isCurrent(gen)) return Promise.resolve();
      become(true);
      decide();
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    const queue = () => void locks.request(options.name, { signal }, hold).catch(() => undefined);
    // Asked first without waiting, so that a lock held by another instance is known at once (a follower).
    locks
      .request(options.name, { ifAvailable: true }, (lock) => {
        if (lock) return hold();
        if (isCurrent(gen)) {
          decide();
          queue();
        }
        return Promise.resolve();
      })
      .catch(() => {
        // A lock manager without `ifAvailable`: wait in line, as a follower meanwhile.
        if (!isCurrent(gen)) return;
        decide();
        queue();
      });
  }

  /** Takes or renews the lease when it is free, expired or already ours; true when this instance holds it now. */
  function takeLease(): Promise<boolean> {
    return db.transaction('rw', db._sync_meta, async () => {
      const row = await db._sync_meta.get('leader');
      const lease = row?.value as { owner: string; expiresAt: number } | undefined;
      if (!lease || lease.owner === owner || lease.expiresAt <= now()) {
        await db._sync_meta.put({ key: 'leader', value: { owner, expiresAt: now() + leaseMs } });
        return true;
      }
      return false;
    });
  }

  /** One lease transaction; false (step down) when the database fails, as a closed one cannot hold a lease. */
  async function tryLease(): Promise<boolean> {
    try {
      return await takeLease();
    } catch {
      return false;
    }
  }

  async function campaign(gen: number): Promise<void> {
    if (!isCurrent(gen)) return;
    const won = await tryLease();
    if (!isCurrent(gen)) return;
    become(won);
    decide();
    timer = env.setTimeout(() => void campaign(gen), leaseMs / 3);
  }

  return {
    get isLeader() {
      return leader;
    },
    start() {
      if (running) return;
      running = true;
      const gen = ++generation;
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      decision = { promise, resolve };
      if (env.locks) startWithLocks(env.locks, gen);
      else void campaign(gen);
    },
    async stop() {
      running = false;
      generation++;
      if (timer !== undefined) env.clearTimeout(timer);
      timer = undefined;
      controller?.abort();
      controller = undefined;
      release?.();
      release = undefined;
      decide();
      decision = undefined;
      const held = leader;
      become(false);
      if (!env.locks && held) {
        await db
          .transaction('rw', db._sync_meta, async () => {
            const row = await db._sync_meta.get('leader');
            if ((row?.value as { owner?: string } | undefined)?.owner === owner) await db._sync_meta.delete('leader');
          })
          .catch(() => undefined);
      }
    },
    decided() {
      return decision?.promise ?? Promise.resolve();
    },
    async heldByAnother() {
      if (leader) return false;
      if (env.locks) {
        let taken = false;
        await env.locks
          .request(options.name, { ifAvailable: true }, async (lock) => {
            taken = lock === null;
          })
          .catch(() => undefined);
        return taken;
      }
      const row = await db._sync_meta.get('leader').catch(() => undefined);
      const lease = row?.value as { owner: string; expiresAt: number } | undefined;
      return lease !== undefined && lease.owner !== owner && lease.expiresAt > now();
    },
    async confirm() {
      if (!running || !leader) return false;
      if (env.locks) return true;
      const gen = generation;
      const held = await tryLease();
      if (!isCurrent(gen)) return false;
      become(held);
      return held;
    },
  };
}
