import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { send, startRawServer, type RawServer } from '../client/helpers/raw-server.js';

// A base64-like API token: visible ASCII, accepted by createClient, holding '/'.
const SECRET = 'tok/SECRET+7f3a9c1e5b==';

describe('the API token in storage (docs/design.md, decision 12)', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  it('is in no IndexedDB row after a refused POST whose 400 body echoes the Authorization header escaped as PHP writes it', async () => {
    server.handle((r, res) => {
      if (r.method === 'GET') return send(res, 200, '[]');
      // PHP's json_encode writes '/' as '\/' by default.
      return send(res, 400, JSON.stringify({ status: 'refused', authorization: r.headers.authorization }).replace(/\//g, '\\/'));
    });
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, userAgent: 'pos-cloud-mirror tests (dev@example.com)', retry: 0 });
    const mirror = createMirror({ client, dbName: 'token-in-rejection-reason', indexedDB: new IDBFactory(), IDBKeyRange, pollIntervalMs: 60_000 });
    try {
      await mirror.save('warehouses', { name: 'Back room' });
      await mirror.syncNow({ collections: ['warehouses'] }).catch(() => undefined);
      const outbox = await mirror.db._sync_outbox.toArray();
      expect(outbox.length).toBe(1);
      expect(outbox[0]!.state).toBe('rejected');
      const everything: unknown[] = [];
      for (const table of mirror.db.tables) everything.push(table.name, await table.toArray());
      expect(JSON.stringify(everything)).not.toContain(SECRET);
    } finally {
      await mirror.close();
    }
  });
});
