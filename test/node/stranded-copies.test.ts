import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDbName } from '../../src/db/db-name.js';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import { openFileStorage } from '../../src/node/index.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { waitFor } from '../mirror/fixture.js';
import { startKillProxy, type KillProxy } from './kill-proxy.js';
import { tempDataDir } from './storage-fixture.js';

let sim: Simulator | undefined;
let proxy: KillProxy | undefined;
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await proxy?.close();
  await sim?.close();
  sim = proxy = undefined;
});

async function setup() {
  sim = await createSimulator({ port: 0, size: 'tiny', seed: 8 });
  proxy = await startKillProxy(sim.baseUrl);
  const dir = tempDataDir();
  cleanups.push(dir.cleanup);
  return { sim, proxy, dataDir: dir.dataDir };
}

/** A process's mirror on the data directory, reaching the simulator at `baseUrl` (its database named after it unless `dbName` is given). */
async function processMirror(dataDir: string, baseUrl: string, dbName?: string): Promise<Mirror> {
  const storage = await openFileStorage({ dataDir });
  const mirror = createMirror({
    baseUrl,
    token: sim!.token,
    userAgent: 'pos-cloud-mirror tests (stranded copies, durable)',
    storage,
    collections: ['customers', 'warehouses'],
    categories: false,
    pollIntervalMs: 60_000,
    retry: { limit: 2, baseDelayMs: 1, backoffLimit: 5 },
    ...(dbName ? { dbName } : {}),
  });
  cleanups.push(() => mirror.close());
  return mirror;
}

/** The bytes of every file of the data directory's database directories, by path. */
function filesOf(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dir of readdirSync(dataDir).filter((d) => d.startsWith('db-'))) {
    for (const file of readdirSync(join(dataDir, dir))) out[join(dir, file)] = readFileSync(join(dataDir, dir, file)).toString('base64');
  }
  return out;
}

/** A job that synced at the simulator's own address, then made two edits it never pushed. */
async function leaveEdits(dataDir: string): Promise<{ edited: string; created: string }> {
  const old = await processMirror(dataDir, sim!.baseUrl);
  await old.syncNow();
  const edited = (await old.db.customers.toArray()).find((c) => c._d === 0)!.id;
  await old.save('customers', { id: edited, note_internal: 'made before the proxy' });
  const created = await old.save('warehouses', { name: 'Sklad za proxy' });
  await old.close();
  return { edited, created };
}

describe('a file storage holding the copy of an old address', () => {
  it('reports its pending edits to the mirror of the new address without writing a byte of it, and the take-over survives a restart and pushes them once', async () => {
    const { sim, proxy, dataDir } = await setup();
    const { edited, created } = await leaveEdits(dataDir);
    const oldName = defaultDbName(sim.baseUrl);
    const oldFiles = filesOf(dataDir);

    // The job restarts behind a proxy: another address, another database in the same directory.
    const current = await processMirror(dataDir, proxy.baseUrl);
    const { stranded } = await waitFor(current.status, (s) => s.stranded !== undefined);
    expect(stranded).toMatchObject([{ dbName: oldName, baseUrl: sim.baseUrl, pending: 2, takenOver: 0, schemaVersion: 9 }]);
    await current.syncNow();
    expect(Object.entries(filesOf(dataDir)).filter(([path]) => path in oldFiles)).toEqual(Object.entries(oldFiles));

    expect(await current.takeOverEdits(oldName)).toEqual({ dbName: oldName, taken: 2, cleared: 2, left: [] });
    await current.close();

    // After a restart both copies are as the take-over left them.
    const restarted = await processMirror(dataDir, proxy.baseUrl);
    expect((await waitFor(restarted.status, (s) => s.stranded !== undefined)).stranded).toEqual([]);
    expect((await restarted.pending()).map((e) => e.id).sort()).toEqual([edited, created].sort());
    await restarted.syncNow();
    expect(await restarted.pending()).toEqual([]);
    await restarted.close();
    expect(sim.requests.timesPosted('customers', edited)).toBe(1);
    expect(sim.requests.timesPosted('warehouses', created)).toBe(1);
    expect(sim.store.get('customers', edited)).toMatchObject({ note_internal: 'made before the proxy' });

    const old = await processMirror(dataDir, proxy.baseUrl, oldName);
    expect(await old.pending()).toEqual([]);
  });

  it('pushes its edits once when it is opened again by name under the new address, and is then no longer reported', async () => {
    const { sim, proxy, dataDir } = await setup();
    const { edited, created } = await leaveEdits(dataDir);
    const oldName = defaultDbName(sim.baseUrl);

    const reopened = await processMirror(dataDir, proxy.baseUrl, oldName);
    expect((await reopened.pending()).length).toBe(2);
    await reopened.syncNow();
    expect(await reopened.pending()).toEqual([]);
    await reopened.close();
    expect(sim.requests.timesPosted('customers', edited)).toBe(1);
    expect(sim.requests.timesPosted('warehouses', created)).toBe(1);

    const current = await processMirror(dataDir, proxy.baseUrl);
    expect((await waitFor(current.status, (s) => s.stranded !== undefined)).stranded).toEqual([]);
  });
});
