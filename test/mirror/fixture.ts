import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createClient } from '../../src/client/index.js';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';

let counter = 0;

/** A simulator over real HTTP and a way to make mirrors (devices or tabs) of it. */
export interface MirrorFixture {
  sim: Simulator;
  /** One IndexedDB per device: mirrors made with the same factory and name share a database (tabs). */
  factory: IDBFactory;
  dbName: string;
  mirror(options?: Partial<MirrorOptions> & { factory?: IDBFactory; token?: string }): Mirror;
  /** The options `mirror()` makes a mirror with, for code that makes it itself (a React provider). */
  options(options?: Partial<MirrorOptions> & { factory?: IDBFactory; token?: string }): MirrorOptions;
  /** Closes a mirror made elsewhere from {@link options} with the fixture (closing twice is harmless). */
  adopt(mirror: Mirror): Mirror;
  close(): Promise<void>;
}

/** Starts a tiny seeded simulator; mirrors made from the fixture are closed with it. */
export async function startMirrorFixture(sim: SimulatorOptions = {}): Promise<MirrorFixture> {
  const simulator = await createSimulator({ port: 0, size: 'tiny', seed: 3, ...sim });
  const made: Mirror[] = [];
  const fixture: MirrorFixture = {
    sim: simulator,
    factory: new IDBFactory(),
    dbName: `mirror-${++counter}`,
    mirror(options = {}) {
      return fixture.adopt(createMirror(fixture.options(options)));
    },
    options(options = {}) {
      const { factory, token, ...rest } = options;
      const client = createClient({
        baseUrl: simulator.baseUrl,
        token: token ?? simulator.token,
        userAgent: 'pos-cloud-mirror tests (mirror)',
        timeoutMs: 5_000,
        retry: { limit: 5, baseDelayMs: 1, maxDelayMs: 5 },
      });
      return {
        client,
        dbName: fixture.dbName,
        indexedDB: factory ?? fixture.factory,
        IDBKeyRange,
        pollIntervalMs: 60_000,
        leaderLeaseMs: 300,
        ...rest,
      };
    },
    adopt(mirror) {
      made.push(mirror);
      return mirror;
    },
    async close() {
      for (const m of made) await m.close();
      await simulator.close();
    },
  };
  return fixture;
}

/** Resolves when `predicate` holds for a value of the observable (or rejects after `ms`). */
export function waitFor<T>(
  source: { subscribe(o: (v: T) => void): { unsubscribe(): void } },
  predicate: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let sub: { unsubscribe(): void } | undefined;
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      sub?.unsubscribe();
      reject(new Error(`condition not met within ${ms} ms`));
    }, ms);
    sub = source.subscribe((value) => {
      if (done || !predicate(value)) return;
      done = true;
      clearTimeout(timer);
      queueMicrotask(() => sub?.unsubscribe());
      resolve(value);
    });
    if (done) sub.unsubscribe();
  });
}

/** A client (with `token`, else the simulator's) whose every request first goes through `before`, which may hold it back or act meanwhile. */
export function clientThrough(sim: Simulator, before: (request: Request) => Promise<void>, token = sim.token) {
  const fetching: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    await before(request);
    return fetch(request);
  };
  return createClient({ baseUrl: sim.baseUrl, token, userAgent: 'pos-cloud-mirror tests (mirror)', timeoutMs: 5_000, fetch: fetching });
}

/** The request is a GET of `collection`'s list. */
export const isGet = (request: Request, collection: string) => request.method === 'GET' && new URL(request.url).pathname.endsWith(`/${collection}`);
/** The request is a batch POST to `collection`. */
export const isPost = (request: Request, collection: string) => request.method === 'POST' && new URL(request.url).pathname.endsWith(`/${collection}`);

/**
 * Resolves once the work `mirror` has under way or queued (a run, a push, a syncNow) has ended
 * and the server has handled every request sent: every pull, push and sweep of a mirror runs in
 * one queue, so a sweep asked now (of no collection: it only waits its turn) runs after all of it.
 */
export async function queuedWorkEnded(mirror: Mirror, sim: Simulator): Promise<void> {
  await mirror.reconcile({ collections: [] });
  await sim.idle();
}
