import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { ValidationError } from '../../../src/errors/index.js';
import { removeLocal, saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { retryRejected } from '../../../src/sync/outbox/outbox-retry.js';

const NOW = 1_760_000_000_000;
let db: MirrorDb;

beforeEach(async () => {
  db = new MirrorDb('local-edit', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
});
afterEach(() => db.close());

/** A customer as a pull would have stored it. */
const serverCustomer: StoredRecord = {
  id: '1000000000000010',
  _v: 500,
  _d: 0,
  _t: 'customers',
  id_c: '77',
  pgx: '77|1000000000000010',
  company: null,
  firstname: 'Ann',
  lastname: 'Lee',
  email: 'ann@example.com',
  country_code: 'CZ',
  price_group: 'A',
  visible: true,
  date_updated: 400,
  date_created: 300,
  loyalty_code: 'kept-unknown-field',
};

async function outbox() {
  return db._sync_outbox.toArray();
}

function tableIdOf(id: string): number {
  return Number((BigInt(id) / 512n) & 0x3fn);
}

function createdAtOf(id: string): number {
  return Number(BigInt(id) / 32768n) + 1_440_000_000_000;
}

describe('saveLocal', () => {
  it('creates a record with a generated id of its table, every default, _v 0 and a create entry', async () => {
    const id = await saveLocal(db, 'customers', { company: null, firstname: 'Eva' }, { now: NOW });
    expect(tableIdOf(id)).toBe(2);
    expect(Math.abs(createdAtOf(id) - NOW)).toBeLessThan(2);
    const record = await db.customers.get(id);
    expect(record).toMatchObject({
      id,
      _v: 0,
      _d: 0,
      _t: 'customers',
      firstname: 'Eva',
      country_code: 'CZ',
      price_group: 'A',
      visible: true,
      customer_type: 0,
      date_created: NOW,
      date_updated: NOW,
    });
    const [entry] = await outbox();
    expect(entry).toMatchObject({ collection: 'customers', id, op: 'create', base: null, server: null, state: 'pending', localVersion: 1, attempts: 0 });
    expect(entry?.changed).toEqual(expect.arrayContaining(['firstname', 'company', 'country_code', 'date_created']));
    expect(entry?.changed).not.toContain('_v');
  });

  it('treats id 0 and "0" as a create', async () => {
    const a = await saveLocal(db, 'warehouses', { id: 0, name: 'A' }, { now: NOW });
    const b = await saveLocal(db, 'warehouses', { id: '0', name: 'B' }, { now: NOW });
    expect(a).not.toBe(b);
    expect([tableIdOf(a), tableIdOf(b)]).toEqual([25, 25]);
    expect(await db.warehouses.count()).toBe(2);
  });

  it('refuses an invalid record listing every bad field, and writes nothing', async () => {
    const error = await saveLocal(db, 'customers', { company: null, email: 'nope', country_code: 'CZE', price_group: 'Z' }, { now: NOW }).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.')).sort()).toEqual(['country_code', 'email', 'price_group']);
    expect(await db.customers.count()).toBe(0);
    expect(await outbox()).toEqual([]);
  });

  it('refuses a record without a required field', async () => {
    const error = await saveLocal(db, 'products', { name: 'Tea' }, { now: NOW }).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toEqual(['date_updated']);
  });

  it('refuses a create offline in a table without a table id, naming the id', async () => {
    for (const collection of ['shops', 'cash_registers', 'park_locations', 'shifts'] as const) {
      const error = await saveLocal(db, collection, { name: 'New' }, { now: NOW }).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toEqual(['id']);
      expect((error as ValidationError).message).toMatch(/cannot be created offline/);
    }
    expect(await outbox()).toEqual([]);
  });

  it('refuses an unknown collection and categories', async () => {
    await expect(saveLocal(db, 'categories' as never, { name: 'x' }, { now: NOW })).rejects.toThrow(ValidationError);
    await expect(saveLocal(db, 'nope' as never, {}, { now: NOW })).rejects.toThrow(/unknown collection "nope"/);
  });

  it('refuses a record that is not an object', async () => {
    await expect(saveLocal(db, 'customers', [] as never, { now: NOW })).rejects.toThrow(/must be an object/);
    await expect(saveLocal(db, 'customers', null as never, { now: NOW })).rejects.toThrow(ValidationError);
  });

  it('refuses a bad id together with the other bad fields', async () => {
    const error = await saveLocal(db, 'customers', { id: 'abc', company: null, email: 'x' }, { now: NOW }).catch((e) => e);
    expect((error as ValidationError).issues.map((i) => i.path.join('.')).sort()).toEqual(['email', 'id']);
  });

  it('creates a record with the app’s own id when the mirror does not hold it', async () => {
    const id = await saveLocal(db, 'shops', { id: 4242, name: 'Shop', currency: 'CZK', location_name: 'x', visible: true }, { now: NOW });
    expect(id).toBe('4242');
    expect(await db.shops.get('4242')).toMatchObject({ _v: 0, name: 'Shop' });
    expect((await outbox())[0]).toMatchObject({ op: 'create', base: null });
  });

  it('updates with a partial record: laid on the local copy, only changed fields recorded, unknown fields kept', async () => {
    await db.customers.put(serverCustomer);
    const id = await saveLocal(db, 'customers', { id: Number(serverCustomer.id), firstname: 'Anna', lastname: 'Lee' }, { now: NOW });
    expect(id).toBe(serverCustomer.id);
    const record = await db.customers.get(id);
    expect(record).toEqual({ ...serverCustomer, firstname: 'Anna' });
    const [entry] = await outbox();
    expect(entry).toMatchObject({ op: 'update', changed: ['firstname'], base: serverCustomer, localVersion: 1 });
  });

  it('validates the merged record of an update and writes nothing when it fails', async () => {
    await db.customers.put(serverCustomer);
    const error = await saveLocal(db, 'customers', { id: serverCustomer.id, email: 'broken', country_code: 'X' }, { now: NOW }).catch((e) => e);
    expect((error as ValidationError).issues.map((i) => i.path.join('.')).sort()).toEqual(['country_code', 'email']);
    expect(await db.customers.get(serverCustomer.id)).toEqual(serverCustomer);
    expect(await outbox()).toEqual([]);
  });

  it('treats a key passed as undefined as not given: no reset to the default, not changed', async () => {
    await db.customers.put({ ...serverCustomer, price_group: 'B', country_code: 'SK' });
    await saveLocal(db, 'customers', { id: serverCustomer.id, phone_number: '+420 777 000 111', price_group: undefined, country_code: undefined }, { now: NOW });
    expect(await db.customers.get(serverCustomer.id)).toMatchObject({ price_group: 'B', country_code: 'SK', phone_number: '+420 777 000 111' });
    expect((await outbox())[0]).toMatchObject({ changed: ['phone_number'] });
  });

  it('does not bring a deleted product back when visible is passed as undefined', async () => {
    const product = { id: '1000000000000020', _v: 5, _d: 700, _t: 'products', name: 'Tea', visible: false, date_updated: 1 };
    await db.products.put(product);
    await saveLocal(db, 'products', { id: product.id, name: 'Green tea', visible: undefined }, { now: NOW });
    expect(await db.products.get(product.id)).toMatchObject({ name: 'Green tea', visible: false, _d: 700 });
  });

  it('sends the default of a defaulted field the server left null: the save carries the whole record', async () => {
    // The read face took the null; the write face (and a server checking a full upsert) would not.
    const server = { ...serverCustomer, customer_type: null };
    await db.customers.put(server);
    await saveLocal(db, 'customers', { id: server.id, phone_number: '+420 777 000 111' }, { now: NOW });
    expect(await db.customers.get(server.id)).toEqual({ ...server, customer_type: 0, phone_number: '+420 777 000 111' });
    expect((await outbox())[0]?.changed).toEqual(['customer_type', 'phone_number']);
    // A field the edit gives is checked as always, and so is a refused value the edit passes itself.
    await expect(saveLocal(db, 'customers', { id: server.id, email: 'broken' }, { now: NOW })).rejects.toThrow(/email: invalid e-mail/);
    await expect(saveLocal(db, 'customers', { id: server.id, customer_type: null }, { now: NOW })).rejects.toThrow(/customer_type: expected a number, got null$/);
  });

  it('refuses an edit of a record whose required field the server left empty, saying it is the server value', async () => {
    const { company: _, ...withoutCompany } = serverCustomer;
    await db.customers.put(withoutCompany);
    const error = (await saveLocal(db, 'customers', { id: serverCustomer.id, phone_number: '1' }, { now: NOW }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe("customers record: company: required (the server's value: a save sends the whole record, so give a valid one with this edit)");
    expect(error.issues.map((i) => i.path)).toEqual([['company']]);
    expect(await outbox()).toEqual([]);
    // Giving it makes the edit valid.
    await saveLocal(db, 'customers', { id: serverCustomer.id, phone_number: '1', company: null }, { now: NOW });
    expect((await outbox())[0]?.changed).toEqual(['company', 'phone_number']);
  });

  it('refuses an unknown field JSON cannot carry, and writes nothing', async () => {
    const loop: Record<string, unknown> = { company: null, lastname: 'Loop' };
    loop.self = loop;
    await expect(saveLocal(db, 'customers', loop, { now: NOW })).rejects.toThrow(/self: must be a JSON value, got a circular reference/);
    await db.customers.put(serverCustomer);
    await expect(saveLocal(db, 'customers', { id: serverCustomer.id, score: Number.NaN }, { now: NOW })).rejects.toThrow(ValidationError);
    expect(await db.customers.get(serverCustomer.id)).toEqual(serverCustomer);
    expect(await outbox()).toEqual([]);
  });

  it('keeps the server _v whatever _v the app passes', async () => {
    await db.customers.put(serverCustomer);
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'Z', _v: 999_999 }, { now: NOW });
    expect((await db.customers.get(serverCustomer.id))?._v).toBe(500);
  });

  it('writes nothing for an update that changes nothing', async () => {
    await db.customers.put(serverCustomer);
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'Ann', email: 'ann@example.com' }, { now: NOW });
    expect(await outbox()).toEqual([]);
  });

  it('collapses several edits of one record into one entry: changed unioned, base kept from the first', async () => {
    await db.customers.put(serverCustomer);
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'A1' }, { now: NOW });
    await saveLocal(db, 'customers', { id: serverCustomer.id, lastname: 'L2' }, { now: NOW + 1 });
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'A3' }, { now: NOW + 2 });
    const entries = await outbox();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'update', changed: ['firstname', 'lastname'], base: serverCustomer, localVersion: 3, createdAt: NOW, updatedAt: NOW + 2 });
    expect(await db.customers.get(serverCustomer.id)).toMatchObject({ firstname: 'A3', lastname: 'L2' });
  });

  it('keeps a create a create through later edits', async () => {
    const id = await saveLocal(db, 'employees', { name: 'Bo' }, { now: NOW });
    await saveLocal(db, 'employees', { id, name: 'Bob' }, { now: NOW + 1 });
    const entries = await outbox();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'create', base: null, localVersion: 2 });
  });

  it('puts a rejected entry back in the queue when the app edits its record again', async () => {
    await db.customers.put(serverCustomer);
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'A1' }, { now: NOW });
    await db._sync_outbox.toCollection().modify({ state: 'rejected', reason: 'server said no' });
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'A2' }, { now: NOW });
    const [entry] = await outbox();
    expect(entry?.state).toBe('pending');
    expect(entry?.reason).toBeUndefined();
  });

  it('lets the app edit a record in conflict: the edit joins the entry, which stays in conflict, and the conflict row shows it', async () => {
    await db.customers.put(serverCustomer);
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'A1' }, { now: NOW });
    const key = `customers:${serverCustomer.id}`;
    await db._sync_outbox.toCollection().modify({ state: 'conflict' });
    await db._sync_conflicts.put({ key, collection: 'customers', id: serverCustomer.id, local: null, server: serverCustomer, base: serverCustomer, fields: ['firstname'], at: NOW });
    await saveLocal(db, 'customers', { id: serverCustomer.id, note_internal: 'x' }, { now: NOW });
    const [entry] = await outbox();
    expect(entry).toMatchObject({ state: 'conflict', changed: ['firstname', 'note_internal'], localVersion: 2 });
    expect((await db._sync_conflicts.get(key))?.local).toMatchObject({ firstname: 'A1', note_internal: 'x' });
  });

  it('writes the record and its entry in one transaction: a failing outbox write leaves neither', async () => {
    await db.customers.put(serverCustomer);
    db._sync_outbox.hook('creating', () => {
      throw new Error('disk full');
    });
    await expect(saveLocal(db, 'customers', { company: null, firstname: 'New' }, { now: NOW })).rejects.toThrow('disk full');
    await expect(saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'Changed' }, { now: NOW })).rejects.toThrow('disk full');
    expect(await db.customers.count()).toBe(1);
    expect(await db.customers.get(serverCustomer.id)).toEqual(serverCustomer);
    expect(await outbox()).toEqual([]);
  });
});

describe('removeLocal', () => {
  it('soft-deletes: _d = now, a delete entry based on the server state', async () => {
    await db.customers.put(serverCustomer);
    await removeLocal(db, 'customers', serverCustomer.id, { now: NOW });
    expect(await db.customers.get(serverCustomer.id)).toEqual({ ...serverCustomer, _d: NOW });
    expect((await outbox())[0]).toMatchObject({ op: 'delete', changed: ['_d'], base: serverCustomer });
  });

  it('also sets visible false on a product', async () => {
    await db.products.put({ id: '55', _v: 9, _d: 0, _t: 'products', name: 'Tea', visible: true, date_updated: 1 });
    await removeLocal(db, 'products', '55', { now: NOW });
    expect(await db.products.get('55')).toMatchObject({ _d: NOW, visible: false });
    expect((await outbox())[0]).toMatchObject({ op: 'delete', changed: ['_d', 'visible'] });
  });

  it('turns a never-pushed create into a delete entry (pushed as a tombstone)', async () => {
    const id = await saveLocal(db, 'warehouses', { name: 'W' }, { now: NOW });
    await removeLocal(db, 'warehouses', id, { now: NOW + 5 });
    const entries = await outbox();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'delete', base: null, localVersion: 2 });
  });

  it('does nothing for a record already deleted', async () => {
    await db.customers.put({ ...serverCustomer, _d: 10 });
    await removeLocal(db, 'customers', serverCustomer.id, { now: NOW });
    expect(await outbox()).toEqual([]);
  });

  it('refuses an id the mirror does not hold, and a malformed id', async () => {
    await expect(removeLocal(db, 'customers', '123', { now: NOW })).rejects.toThrow(/no record with id 123/);
    await expect(removeLocal(db, 'customers', 'x1' as never, { now: NOW })).rejects.toThrow(ValidationError);
  });

  it('a save that clears _d brings the record back as an update', async () => {
    await db.customers.put(serverCustomer);
    await removeLocal(db, 'customers', serverCustomer.id, { now: NOW });
    await saveLocal(db, 'customers', { id: serverCustomer.id, _d: 0 }, { now: NOW + 1 });
    expect((await outbox())[0]).toMatchObject({ op: 'update', changed: ['_d'] });
  });
});

describe('retryRejected', () => {
  it('puts rejected entries back in the queue, all or by id', async () => {
    await db.customers.bulkPut([serverCustomer, { ...serverCustomer, id: '2000' }]);
    await saveLocal(db, 'customers', { id: serverCustomer.id, firstname: 'X' }, { now: NOW });
    await saveLocal(db, 'customers', { id: '2000', firstname: 'Y' }, { now: NOW });
    await db._sync_outbox.toCollection().modify({ state: 'rejected', reason: 'no' });
    expect(await retryRejected(db, ['2000'])).toBe(1);
    expect((await outbox()).map((e) => e.state).sort()).toEqual(['pending', 'rejected']);
    expect(await retryRejected(db)).toBe(1);
    expect((await outbox()).every((e) => e.state === 'pending' && e.reason === undefined)).toBe(true);
  });
});
