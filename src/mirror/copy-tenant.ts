import type { MirrorDb } from '../db/mirror-db.js';
import { ValidationError } from '../errors/index.js';
import { COLLECTIONS } from '../schema/collections.js';

/** Records read per collection to learn a copy's tenant. */
const SAMPLE = 10;

/**
 * The tenant ids (`id_c`) of the server records a copy holds, from a few records of each
 * collection. Records created on the device and never pulled back (`_v` 0) are left out: only
 * what the service sent says whose data it is.
 */
export async function tenantsOf(db: MirrorDb): Promise<Set<string>> {
  const tenants = new Set<string>();
  for (const collection of COLLECTIONS) {
    for (const record of await db.collection(collection).limit(SAMPLE).toArray()) {
      const idC = record.id_c;
      if (record._v > 0 && typeof idC === 'string' && idC !== '0') tenants.add(idC);
    }
  }
  return tenants;
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
