/**
 * What the pull's tests share: a simulator over real HTTP with a client for it and a mirror database
 * on its own fake-indexeddb (closed after each test), and a client whose traversals can be hooked
 * after each page.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach } from 'vitest';
import { createClient } from '../../../src/client/index.js';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import type { PageLike, SyncClient, TraversalQuery } from '../../../src/sync/sync-client.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../../src/simulator/index.js';

/**
 * Returns the `setup` of a test file: each call starts a tiny tenant (seed 11 unless `options` say
 * otherwise) and opens a database named after `name`; both are closed after the test.
 */
export function pullSetup(name: string, defaults: SimulatorOptions = {}) {
  const open: { sim: Simulator; db: MirrorDb }[] = [];
  let n = 0;
  afterEach(async () => {
    for (const { sim, db } of open.splice(0)) {
      db.close();
      await sim.close();
    }
  });
  return async (options: SimulatorOptions = {}) => {
    const sim = await createSimulator({ port: 0, size: 'tiny', seed: 11, ...defaults, ...options });
    const client = createClient({
      baseUrl: sim.baseUrl,
      token: sim.token,
      userAgent: `pos-cloud-mirror tests (${name})`,
      timeoutMs: 5_000,
      retry: { limit: 7, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const db = new MirrorDb(`${name.replace(/\s+/g, '-')}-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    open.push({ sim, db });
    return { sim, client: client as unknown as SyncClient, db };
  };
}

/** A client whose traversals call `afterPage(collection, pageIndex)` once each page has been handed out. */
export function withPageHook(client: SyncClient, afterPage: (c: CollectionName, index: number) => void | Promise<void>): SyncClient {
  return {
    ...client,
    pages(collection: CollectionName, query: TraversalQuery): AsyncIterable<PageLike> {
      return (async function* () {
        let index = 0;
        for await (const page of client.pages(collection, query)) {
          yield page;
          await afterPage(collection, index++);
        }
      })();
    },
  };
}
