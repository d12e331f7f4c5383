import { describe, expect, it } from 'vitest';
import { checkSoak, type AnyRecord, type SoakState } from '../../scripts/soak/checks.js';
import { Ledger } from '../../scripts/soak/ledger.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import type { OutboxEntry } from '../../src/db/sync-rows.js';

/** Two customers from the tenant, one created by device 1 (id 30), and its edit; the server and device 1 agree. */
function agreeingState(): SoakState {
  const empty = Object.fromEntries(COLLECTIONS.map((c) => [c, [] as AnyRecord[]])) as Record<CollectionName, AnyRecord[]>;
  const customers: AnyRecord[] = [
    { id: '10', _v: 5, _d: 0, firstname: 'd1#7', lastname: 'Nováková' },
    { id: '20', _v: 6, _d: 0, firstname: 'Petr', lastname: 'r#8' },
    { id: '30', _v: 7, _d: 0, firstname: 'd1#3.1', lastname: 'd1#3.2' },
  ];
  const ledger = new Ledger();
  ledger.created(3, 'device 1', 'customers', '30');
  ledger.wrote(3, 'device 1', 'customers', '30', null, { firstname: 'd1#3.1', lastname: 'd1#3.2' });
  ledger.wrote(7, 'device 1', 'customers', '10', { firstname: 'Jana' }, { firstname: 'd1#7' });
  ledger.wrote(8, 'register', 'customers', '20', { lastname: 'Dvořák' }, { lastname: 'r#8' });
  return {
    server: { ...empty, customers },
    initialCounts: { ...Object.fromEntries(COLLECTIONS.map((c) => [c, 0])), customers: 2 } as Record<CollectionName, number>,
    devices: [{ writer: 'device 1', records: { ...empty, customers: customers.map((r) => ({ ...r })) }, outbox: [] }],
    ledger,
    unhandledRejections: [],
    operationErrors: [],
  };
}

const kinds = (state: SoakState) => checkSoak(state).violations.map((v) => v.kind);

describe('the soak checks', () => {
  it('pass a state where every create landed once, every write is on the server and the device equals it', () => {
    const result = checkSoak(agreeingState());
    expect(result.violations).toEqual([]);
    expect(result).toMatchObject({ lost: 0, duplicated: 0, createsFound: 1, orphaned: 0, writes: { checked: 4, onServer: 4 } });
  });

  it('report a create applied twice: a record on the server that no one created', () => {
    const state = agreeingState();
    (state.server.customers as AnyRecord[]).push({ id: '31', _v: 8, _d: 0, firstname: 'd1#3.1', lastname: 'd1#3.2' });
    (state.devices[0]!.records.customers as AnyRecord[]).push({ id: '31', _v: 8, _d: 0, firstname: 'd1#3.1', lastname: 'd1#3.2' });
    const result = checkSoak(state);
    expect(result.duplicated).toBe(1);
    expect(result.violations).toEqual([{ kind: 'duplicated', message: expect.stringContaining('customers: the server holds 4 records, 1 more than the 3 made') }]);
  });

  it('report each local create a mirror found with no outbox entry once, however many tabs of its database say so', () => {
    const state = agreeingState();
    const found = { total: 1, latest: [{ collection: 'customers' as const, id: '30', at: 1 }] };
    const device = state.devices[0]!;
    state.devices = [
      { ...device, label: 'tab 1', orphanedCreates: found },
      { ...device, label: 'tab 2', orphanedCreates: found },
    ];
    const result = checkSoak(state);
    expect(result.orphaned).toBe(1);
    expect(result.violations).toEqual([
      { kind: 'orphaned', message: 'tab 2: customers 30: a local create with no outbox entry (queued again by the mirror)', subject: { collection: 'customers', id: '30' } },
    ]);
  });

  it('report a create missing on the server', () => {
    const state = agreeingState();
    state.server = { ...state.server, customers: state.server.customers.filter((r) => r.id !== '30') };
    const device = state.devices[0]!;
    state.devices = [{ ...device, records: { ...device.records, customers: device.records.customers.filter((r) => r.id !== '30') } }];
    const result = checkSoak(state);
    expect(result.lost).toBeGreaterThanOrEqual(1);
    expect(result.violations.map((v) => v.message)).toContain('device 1 created customers 30 (step 3), which is not on the server');
  });

  it('report a device that differs from the server in one field, naming it with both values', () => {
    const state = agreeingState();
    (state.devices[0]!.records.customers[1] as Record<string, unknown>).lastname = 'stale';
    expect(checkSoak(state).violations).toEqual([{ kind: 'differs', message: 'device 1: customers 20: differs in lastname ("stale" vs "r#8")', subject: { collection: 'customers', id: '20' } }]);
  });

  it('report an acknowledged edit the server lost, unless someone wrote over it having seen it or a conflict dropped it', () => {
    const lost = agreeingState();
    for (const records of [lost.server.customers, lost.devices[0]!.records.customers]) (records[0] as Record<string, unknown>).firstname = 'Jana';
    expect(checkSoak(lost).violations).toEqual([
      { kind: 'lost', message: 'device 1 wrote firstname = "d1#7" in customers 10 (step 7): the server has "Jana", and no write made over this value nor a conflict explains it', subject: { collection: 'customers', id: '10' } },
    ]);

    // A register that had seen d1#7 wrote over it: explained.
    const overwritten = agreeingState();
    for (const records of [overwritten.server.customers, overwritten.devices[0]!.records.customers]) (records[0] as Record<string, unknown>).firstname = 'r#9';
    overwritten.ledger.wrote(9, 'register', 'customers', '10', { firstname: 'd1#7' }, { firstname: 'r#9' });
    expect(kinds(overwritten)).toEqual([]);

    // A register that had not seen it (its `before` is the old value): the device's edit was lost.
    const blind = agreeingState();
    for (const records of [blind.server.customers, blind.devices[0]!.records.customers]) (records[0] as Record<string, unknown>).firstname = 'r#9';
    blind.ledger.wrote(9, 'register', 'customers', '10', { firstname: 'Jana' }, { firstname: 'r#9' });
    expect(kinds(blind)).toEqual(['lost']);

    // The device's conflict on it, resolved for the server, dropped it; resolved for the device, it did not.
    for (const [choice, expected] of [['server', []], ['local', ['lost']]] as const) {
      const conflicted = agreeingState();
      for (const records of [conflicted.server.customers, conflicted.devices[0]!.records.customers]) (records[0] as Record<string, unknown>).firstname = 'Jana';
      conflicted.ledger.conflict(10, 'device 1', 'customers', '10', ['firstname']);
      conflicted.ledger.resolvedConflict(11, 'device 1', 'customers', '10', choice, ['firstname']);
      expect(kinds(conflicted), choice).toEqual(expected);
    }
  });

  it('report a deletion that did not land, and a register edit undone', () => {
    const state = agreeingState();
    state.ledger.removed(12, 'device 1', 'customers', '20');
    for (const records of [state.server.customers, state.devices[0]!.records.customers]) (records[1] as Record<string, unknown>).lastname = 'Dvořák';
    expect(checkSoak(state).violations.map((v) => v.message)).toEqual([
      'register wrote lastname = "r#8" in customers 20 (step 8): the server has "Dvořák", and no write made over this value nor a conflict explains it',
      'device 1 deleted customers 20 (step 12): the record is not deleted on the server, and no conflict explains it',
    ]);
  });

  it('report an outbox entry left after settling, an unhandled rejection and a failed operation', () => {
    const state = agreeingState();
    const entry: OutboxEntry = { seq: 1, collection: 'customers', id: '10', op: 'update', changed: ['firstname'], base: null, server: null, localVersion: 1, createdAt: 0, updatedAt: 0, state: 'rejected', reason: 'refused', attempts: 1 };
    state.devices = [{ ...state.devices[0]!, outbox: [entry] }];
    state.unhandledRejections = ['Error: boom'];
    state.operationErrors = ['step 4 {"kind":"edit"}: ValidationError: bad'];
    expect(checkSoak(state).violations).toEqual([
      { kind: 'stuck', message: 'device 1: outbox rejected update of customers 10 (refused)' },
      { kind: 'unhandled', message: 'unhandled rejection: Error: boom' },
      { kind: 'failed', message: 'operation failed: step 4 {"kind":"edit"}: ValidationError: bad' },
    ]);
  });
});
