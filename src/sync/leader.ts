import type { MirrorDb } from '../db/mirror-db.js';
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
  /** Steps down and stops campaigning. */
  stop(): Promise<void>;
}

/**
 * Exactly one syncing instance per database (DESIGN.md decision 10). With Web Locks the leader
 * holds an exclusive lock for as long as it lives; the browser hands the lock to a waiting tab
 * when the leader's tab closes or crashes. Where Web Locks are missing (Node, old browsers) a
 * lease row in `_sync_meta` is taken and renewed in transactions; a follower takes over when the
 * lease has not been renewed for `leaseMs`.
 */
export function createLeaderElector(options: LeaderElectorOptions): LeaderElector {
  const { env } = options;
  const now = env.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const owner = `${now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let leader = false;
  let running = false;
  let controller: AbortController | undefined;
  let release: (() => void) | undefined;
  let timer: unknown;

  function become(next: boolean): void {
    if (leader === next) return;
    leader = next;
    options.onChange(next);
  }

  function startWithLocks(locks: LockManagerLike): void {
    controller = new AbortController();
    locks
      .request(options.name, { signal: controller.signal }, () => {
        if (!running) return Promise.resolve();
        become(true);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      })
      .catch(() => undefined);
  }

  async function campaign(): Promise<void> {
    if (!running) return;
    try {
      const won = await options.db.transaction('rw', options.db._sync_meta, async () => {
        const row = await options.db._sync_meta.get('leader');
        const lease = row?.value as { owner: string; expiresAt: number } | undefined;
        if (!lease || lease.owner === owner || lease.expiresAt <= now()) {
          await options.db._sync_meta.put({ key: 'leader', value: { owner, expiresAt: now() + leaseMs } });
          return true;
        }
        return false;
      });
      if (running) become(won);
    } catch {
      // A closed or failing database cannot hold a lease: step down and try again later.
      if (running) become(false);
    }
    if (running) timer = env.setTimeout(() => void campaign(), leaseMs / 3);
  }

  return {
    get isLeader() {
      return leader;
    },
    start() {
      if (running) return;
      running = true;
      if (env.locks) startWithLocks(env.locks);
      else void campaign();
    },
    async stop() {
      running = false;
      if (timer !== undefined) env.clearTimeout(timer);
      controller?.abort();
      release?.();
      release = undefined;
      if (!env.locks && leader) {
        await options.db
          .transaction('rw', options.db._sync_meta, async () => {
            const row = await options.db._sync_meta.get('leader');
            if ((row?.value as { owner?: string } | undefined)?.owner === owner) await options.db._sync_meta.delete('leader');
          })
          .catch(() => undefined);
      }
      become(false);
    },
  };
}
