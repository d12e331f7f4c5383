import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createClient } from '../../../src/client/index.js';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import type { ConflictStrategy } from '../../../src/sync/conflicts/conflict-strategy.js';
import { createPuller, type Puller } from '../../../src/sync/pull/pull.js';
import { createPusher, type PushClient, type Pusher } from '../../../src/sync/push/push.js';
import type { SyncClient } from '../../../src/sync/sync-client.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../../src/simulator/index.js';

/** A simulator over real HTTP, a client, and one device's database with its puller and pusher. */
export interface PushFixture {
  sim: Simulator;
  client: ReturnType<typeof createClient>;
  factory: IDBFactory;
  dbName: string;
  db: MirrorDb;
  puller: Puller;
  pusher: Pusher;
  /** A new pusher over the same database with other options. */
  makePusher(options?: { conflict?: ConflictStrategy; batch?: { maxRecords?: number; maxBytes?: number }; client?: PushClient }): Pusher;
  /** Pulls collections into the database (what the sync cycle does before a push). */
  pull(...collections: CollectionName[]): Promise<void>;
  /** Closes the database and opens a new one of the same name on the same IndexedDB (a restart). */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

/** A `fetch` that records every POST body (path and text) and may act before a POST goes out. */
export function recordingFetch(before?: (path: string, body: string) => Promise<void> | void): { fetch: typeof fetch; posts: { path: string; body: string }[] } {
  const posts: { path: string; body: string }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (request.method === 'POST') {
      const body = await request.clone().text();
      const path = new URL(request.url).pathname;
      posts.push({ path, body });
      await before?.(path, body);
    }
    return fetch(request);
  };
  return { fetch: wrapped, posts };
}

/** Starts a tiny seeded simulator and a fresh database. */
export async function startPushFixture(
  options: {
    sim?: SimulatorOptions;
    conflict?: ConflictStrategy;
    batch?: { maxRecords?: number; maxBytes?: number };
    fetch?: typeof fetch;
  } = {},
): Promise<PushFixture> {
  const sim = await createSimulator({ port: 0, size: 'tiny', seed: 7, ...options.sim });
  const client = createClient({
    baseUrl: sim.baseUrl,
    token: sim.token,
    userAgent: 'pos-cloud-mirror tests (push)',
    timeoutMs: 5_000,
    retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 5 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const factory = new IDBFactory();
  const dbName = `push-${++counter}`;
  const fixture: PushFixture = {
    sim,
    client,
    factory,
    dbName,
    db: new MirrorDb(dbName, { indexedDB: factory, IDBKeyRange }),
    puller: undefined as never,
    pusher: undefined as never,
    makePusher(more = {}) {
      return createPusher({
        db: fixture.db,
        client: more.client ?? client,
        conflict: more.conflict ?? options.conflict,
        batch: { ...options.batch, ...more.batch },
      });
    },
    async pull(...collections) {
      for (const collection of collections) await fixture.puller.pull(collection);
    },
    async reopen() {
      fixture.db.close();
      fixture.db = new MirrorDb(dbName, { indexedDB: factory, IDBKeyRange });
      await fixture.db.open();
      wire();
    },
    async close() {
      fixture.db.close();
      await sim.close();
    },
  };
  const wire = () => {
    fixture.puller = createPuller({ db: fixture.db, client: client as unknown as SyncClient });
    fixture.pusher = fixture.makePusher();
  };
  wire();
  await fixture.db.open();
  return fixture;
}
