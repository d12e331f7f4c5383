/**
 * One device of a soak run: a mirror with its own database (its own fake-indexeddb factory), its
 * own user agent and its own copy of the token. It syncs when told, and restarts: `close()` at a
 * chosen point of a sync (mid-pull, as a POST goes out, once a POST was answered, or at a random
 * moment), then a new mirror on the same database.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { Simulator } from '../../src/simulator/index.js';
import type { Writer } from './ledger.js';
import type { RestartPoint } from './operations.js';

/** How a restart went: whether the mirror was closed at the point aimed at, or after the sync ended without reaching it. */
export type RestartOutcome = 'hit' | 'missed';

/** Counts of what a device did. */
export interface DeviceCounts {
  syncs: number;
  /** Syncs that failed, by error name (`HttpError`, `AuthError`, `RateLimitError`, `NetworkError`, ...). */
  failedSyncs: Record<string, number>;
  requests: number;
  /** `start()` then `stop()` once the run it began had ended. */
  startStops: number;
}

/** A trap set by a restart: close the mirror when the sync reaches this point. */
interface Trap {
  point: RestartPoint;
  /** GETs still to answer before a `mid-pull` trap springs. */
  left: number;
  spring: () => void;
}

/** One device: a mirror on its own database, reopened by restarts. */
export class Device {
  readonly writer: Writer;
  readonly counts: DeviceCounts = { syncs: 0, failedSyncs: {}, requests: 0, startStops: 0 };
  private readonly factory = new IDBFactory();
  private current: Mirror;
  private trap: Trap | undefined;
  /** The token this device was given last (a revoked one until it is given the new one). */
  private token: string;

  constructor(
    private readonly sim: Simulator,
    readonly index: number,
  ) {
    this.writer = `device ${index}`;
    this.token = sim.token;
    this.current = this.open();
  }

  /** The mirror now (a restart replaces it). */
  get mirror(): Mirror {
    return this.current;
  }

  /** Gives the device the simulator's current token, as an app does once the user enters it. */
  giveToken(): void {
    this.token = this.sim.token;
    this.current.setToken(this.token);
  }

  /** Whether the device holds the token the simulator accepts. */
  get hasCurrentToken(): boolean {
    return this.token === this.sim.token;
  }

  /** One `syncNow()`; a failure (faults, a revoked token) is counted, not thrown. */
  async sync(): Promise<boolean> {
    this.counts.syncs++;
    try {
      await this.current.syncNow();
      return true;
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      this.counts.failedSyncs[name] = (this.counts.failedSyncs[name] ?? 0) + 1;
      return false;
    }
  }

  /**
   * Starts a sync and closes the mirror when it reaches `point` (`after`: the GETs to answer
   * first for `mid-pull`, the delay in ms for `random`), or once the sync ended without reaching
   * it; waits until the server handled every request the closed mirror sent, then opens a new
   * mirror on the same database.
   */
  async restart(point: RestartPoint, after: number): Promise<RestartOutcome> {
    let hit = false;
    let closing: Promise<void> | undefined;
    const closeNow = () => {
      hit = true;
      this.trap = undefined;
      closing ??= this.current.close();
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (point === 'random') timer = setTimeout(closeNow, after);
    else this.trap = { point, left: after, spring: closeNow };
    await this.sync();
    clearTimeout(timer);
    this.trap = undefined;
    closing ??= this.current.close();
    await closing;
    // A request the closed mirror gave up on is still handled, a POST still applied: the next
    // operation must not race it.
    await this.sim.idle();
    this.current = this.open();
    return hit ? 'hit' : 'missed';
  }

  /**
   * `start()`, as an app opening: the mirror campaigns, leads (it is alone on its database) and
   * syncs at once; once that run has ended, `stop()`. Nothing else runs meanwhile. Resolves to
   * whether the run ended within `timeoutMs`.
   */
  async startAndStop(timeoutMs = 20_000): Promise<boolean> {
    const mirror = this.current;
    let ran = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      const sub = mirror.status.subscribe((s) => {
        if (s.phase === 'syncing' || s.phase === 'initial-sync') ran = true;
        else if (ran) {
          queueMicrotask(() => sub.unsubscribe());
          resolve(true);
        }
      });
    });
    await mirror.start();
    const done = await ended;
    clearTimeout(timer);
    await mirror.stop();
    await this.sim.idle();
    this.counts.startStops++;
    return done;
  }

  /** Closes the mirror for good. */
  close(): Promise<void> {
    return this.current.close();
  }

  private open(): Mirror {
    return createMirror({
      baseUrl: this.sim.baseUrl,
      token: this.token,
      userAgent: `pos-cloud-mirror soak, device ${this.index} (dev@example.com)`,
      dbName: `soak-device-${this.index}`,
      indexedDB: this.factory,
      IDBKeyRange,
      // Small pages: traversals of several pages, so that restarts land between them.
      pageLimit: 20,
      pollIntervalMs: 3_600_000,
      timeoutMs: 10_000,
      retry: { limit: 3, baseDelayMs: 5, backoffLimit: 100 },
      fetch: (input, init) => this.send(input, init),
    });
  }

  /** The device's `fetch`: counts requests and springs a restart's trap at its point. */
  private async send(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    this.counts.requests++;
    const method = (input instanceof Request ? input.method : init?.method ?? 'GET').toUpperCase();
    const trap = this.trap;
    const answer = fetch(input, init);
    if (trap?.point === 'before-post' && method === 'POST') queueMicrotask(trap.spring);
    const response = await answer;
    if (trap?.point === 'after-post' && method === 'POST') trap.spring();
    if (trap?.point === 'mid-pull' && method === 'GET' && --trap.left <= 0) trap.spring();
    return response;
  }
}
