/**
 * A process the crash-safety test starts and kills: a mirror on a file storage that syncs and
 * edits customers, products and warehouses against the simulator, telling its parent (IPC) each
 * edit that `save()` or `remove()` has resolved, the moment the app would consider it saved.
 * With `fault`, it kills itself in the middle of a journal commit.
 * With `settle`, it first reports what it found in the database (so the test knows it opened the
 * one the killed processes wrote), then syncs until nothing is pending, reports, and exits.
 */
import { createMirror } from '../../src/mirror/create-mirror.js';
import { openFileStorage } from '../../src/node/index.js';
import { injectJournalFault, type JournalFault } from './journal-faults.js';

interface Args {
  baseUrl: string;
  token: string;
  dataDir: string;
  /**
   * The database every process of one test opens, named outright: the killed processes reach
   * the service through a proxy (another base URL than the settling process's), and a name
   * derived from the base URL would give each address a database of its own.
   */
  dbName: string;
  seed: number;
  /** Mixed into the edits' random sequence (the test's `CRASH_SEED`). */
  salt: number;
  settle: boolean;
  /** Dies in the middle of a journal commit (see journal-faults.ts). */
  fault?: JournalFault;
}

/** An edit the app was told is saved. */
export interface AckedEdit {
  op: string;
  collection: 'customers' | 'products' | 'warehouses';
  id: string;
  fields: Record<string, unknown>;
  removed?: true;
}

/** What the settling process found in the database before it synced. */
export interface FoundBeforeSettling {
  /** Records of the edited collections. */
  records: number;
  /** Outbox entries. */
  outbox: { collection: string; id: string; state: string }[];
}

const COLLECTIONS_EDITED = ['customers', 'products', 'warehouses'] as const;
const args = JSON.parse(process.argv[2]!) as Args;
let state = (args.seed * 2654435761 + args.salt * 40503) % 2 ** 32;
const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

if (args.fault) injectJournalFault(args.fault);
const storage = await openFileStorage({ dataDir: args.dataDir });
const mirror = createMirror({
  baseUrl: args.baseUrl,
  token: args.token,
  userAgent: 'pos-cloud-mirror crash test (dev@example.com)',
  storage,
  dbName: args.dbName,
  pageLimit: 15,
  pollIntervalMs: 60_000,
  collections: [...COLLECTIONS_EDITED],
  retry: { limit: 3, baseDelayMs: 1, backoffLimit: 5 },
});
await send({ kind: 'ready' });

if (args.settle) {
  const records = (await Promise.all(COLLECTIONS_EDITED.map((c) => mirror.db.table(c).count()))).reduce((a, b) => a + b, 0);
  const outbox = (await mirror.pending()).map((e) => ({ collection: e.collection, id: e.id, state: e.state }));
  await send({ kind: 'found', found: { records, outbox } satisfies FoundBeforeSettling });
  for (let round = 0; round < 20; round++) {
    await mirror.syncNow().catch(() => undefined);
    if ((await mirror.pending()).every((e) => e.state !== 'pending')) break;
  }
  const pending = await mirror.pending();
  await send({ kind: 'settled', pending: pending.length, states: pending.map((e) => e.state) });
  await mirror.close();
  process.exit(0);
}

let n = 0;
for (;;) {
  const roll = random();
  const op = `crash-${args.seed}-${n++}`;
  try {
    if (roll < 0.3) {
      await mirror.syncNow();
    } else if (roll < 0.55) {
      const fields = { company: op, email: `${op}@example.com` };
      const id = await mirror.save('customers', fields);
      await send({ kind: 'ack', edit: { op, collection: 'customers', id, fields } satisfies AckedEdit });
    } else if (roll < 0.7) {
      const live = (await mirror.db.customers.toArray()).filter((c) => c._d === 0);
      const target = live[Math.floor(random() * live.length)];
      if (target) {
        const fields = { note_internal: op };
        await mirror.save('customers', { id: target.id, ...fields });
        await send({ kind: 'ack', edit: { op, collection: 'customers', id: target.id, fields } satisfies AckedEdit });
      }
    } else if (roll < 0.8) {
      const live = (await mirror.db.customers.toArray()).filter((c) => c._d === 0 && String(c.company ?? '').startsWith('crash-'));
      const target = live[Math.floor(random() * live.length)];
      if (target) {
        await mirror.remove('customers', target.id);
        await send({ kind: 'ack', edit: { op, collection: 'customers', id: target.id, fields: {}, removed: true } satisfies AckedEdit });
      }
    } else if (roll < 0.9) {
      const fields = { name: op, date_updated: 1_700_000_000_000 + n };
      const id = await mirror.save('products', fields);
      await send({ kind: 'ack', edit: { op, collection: 'products', id, fields } satisfies AckedEdit });
    } else {
      const fields = { name: op };
      const id = await mirror.save('warehouses', fields);
      await send({ kind: 'ack', edit: { op, collection: 'warehouses', id, fields } satisfies AckedEdit });
    }
  } catch {
    // A failed sync (faults) is retried by the next round; an edit that threw was not saved.
  }
}
