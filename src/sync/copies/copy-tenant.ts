import type { MirrorDb } from '../../db/mirror-db.js';
import { ValidationError } from '../../errors/index.js';
import { COLLECTIONS } from '../../schema/collections.js';
import { openExisting } from './copy-outbox.js';

/** Records read per collection to learn a copy's tenant. */
const SAMPLE = 10;

/**
 * The tenant ids (`id_c`) of the server records this mirror holds, from a few records of each
 * collection. Records created on the device and never pulled back (`_v` 0) are left out: only
 * what the service sent says whose data it is.
 */
export async function tenantsOf(db: MirrorDb): Promise<Set<string>> {
  const tenants = new Set<string>();
  for (const collection of COLLECTIONS) {
    for (const record of await db.collection(collection).limit(SAMPLE).toArray()) addTenant(tenants, record);
  }
  return tenants;
}

/**
 * {@link tenantsOf} another copy, `name` in `factory`, read as it is (no version asked, nothing
 * written or upgraded: a copy refused for its tenant is left exactly as it was). Empty when
 * there is no such database.
 */
export async function tenantsOfCopy(factory: IDBFactory, name: string): Promise<Set<string>> {
  const tenants = new Set<string>();
  const db = await openExisting(factory, name);
  if (!db) return tenants;
  try {
    const stores = COLLECTIONS.filter((c) => db.objectStoreNames.contains(c));
    if (stores.length === 0) return tenants;
    const tx = db.transaction(stores, 'readonly');
    const pages = await Promise.all(
      stores.map(
        (store) =>
          new Promise<unknown[]>((resolve, reject) => {
            const request = tx.objectStore(store).getAll(null, SAMPLE);
            request.onsuccess = () => resolve(request.result as unknown[]);
            request.onerror = () => reject(request.error ?? new Error(`reading ${store} failed`));
          }),
      ),
    );
    for (const record of pages.flat()) addTenant(tenants, record);
    return tenants;
  } finally {
    db.close();
  }
}

/** Adds the record's tenant id, when it is a record the service sent. */
function addTenant(tenants: Set<string>, record: unknown): void {
  const { _v, id_c: idC } = (record ?? {}) as { _v?: unknown; id_c?: unknown };
  if (typeof _v === 'number' && _v > 0 && typeof idC === 'string' && idC !== '0') tenants.add(idC);
}

/**
 * Refuses, with a `ValidationError` on `dbName`, to move edits between copies that do not hold
 * the same tenant's records: a copy named after another address may be another account's, and
 * its edits would be written into this one's. Both copies must hold server records, and their
 * tenant ids must be the same.
 */
export function assertSameTenant(current: ReadonlySet<string>, other: ReadonlySet<string>, dbName: string): void {
  const fail = (message: string): never => {
    throw new ValidationError(`takeOverEdits ${JSON.stringify(dbName)}: ${message}`, { issues: [{ path: ['dbName'], message }] });
  };
  if (current.size === 0) fail('this mirror holds no record of the service yet: sync it first, so that the tenant (id_c) of both copies can be compared');
  if (other.size === 0) {
    fail('that copy holds no record the service sent, so its tenant (id_c) cannot be told: open it with createMirror({ dbName }) and the address it belongs to, to push its edits');
  }
  const same = current.size === other.size && [...other].every((t) => current.has(t));
  if (!same) {
    fail(`that copy holds records of tenant (id_c) ${[...other].sort().join(', ')}, this mirror of ${[...current].sort().join(', ')}: its edits belong to another account and are not taken`);
  }
}
