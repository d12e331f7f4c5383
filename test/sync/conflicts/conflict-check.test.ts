import { describe, expect, it, vi } from 'vitest';
import type { OutboxEntry, StoredRecord } from '../../../src/db/sync-rows.js';
import { checkEntry, knownServerState } from '../../../src/sync/conflicts/conflict-check.js';
import type { ConflictStrategy } from '../../../src/sync/conflicts/conflict-strategy.js';
import { withSent } from '../../../src/sync/outbox/outbox-sent.js';

const base: StoredRecord = { id: '9', _v: 100, _t: 'customers', firstname: 'Ann', lastname: 'Lee', note: null, _d: 0 };

function entry(patch: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    seq: 1,
    collection: 'customers',
    id: '9',
    op: 'update',
    changed: ['firstname'],
    base,
    server: null,
    localVersion: 1,
    createdAt: 1,
    updatedAt: 1,
    state: 'pending',
    attempts: 0,
    ...patch,
  };
}

const local: StoredRecord = { ...base, firstname: 'Anna' };

describe('checkEntry', () => {
  it('pushes unchanged when the server did not move since the base', () => {
    expect(checkEntry(entry(), local, base, 'merge')).toEqual({ kind: 'push', record: local, base, changed: ['firstname'], rebased: false });
  });

  it('pushes a create the server has never had as it is', () => {
    const created = { ...local, _v: 0 };
    const outcome = checkEntry(entry({ op: 'create', base: null, changed: ['firstname', 'lastname'] }), created, null, 'merge');
    expect(outcome).toMatchObject({ kind: 'push', base: null, rebased: false });
  });

  it('edit/edit of disjoint fields: merges and rebases on the server state', () => {
    const server = { ...base, _v: 200, lastname: 'Li' };
    const outcome = checkEntry(entry(), local, server, 'merge');
    expect(outcome).toEqual({
      kind: 'push',
      record: { ...base, _v: 200, firstname: 'Anna', lastname: 'Li' },
      base: server,
      changed: ['firstname'],
      rebased: true,
    });
  });

  it('edit/edit of the same field to different values: a conflict under merge', () => {
    const server = { ...base, _v: 200, firstname: 'Annie' };
    expect(checkEntry(entry(), local, server, 'merge')).toEqual({ kind: 'conflict', fields: ['firstname'], local, server });
  });

  it('edit/edit of the same field to the same value: acknowledged, nothing to send', () => {
    const server = { ...base, _v: 200, firstname: 'Anna' };
    expect(checkEntry(entry(), local, server, 'merge')).toEqual({ kind: 'acknowledge', record: server });
  });

  it.each<[string, ConflictStrategy, string, boolean]>([
    ['server-wins', 'server-wins', 'Annie', false],
    ['client-wins', 'client-wins', 'Anna', true],
    ["a resolver answering 'local'", () => 'local', 'Anna', true],
    ["a resolver answering 'server'", () => 'server', 'Annie', false],
  ])('edit/edit of one field under %s keeps %s', (_title, strategy, firstname, pushes) => {
    const server = { ...base, _v: 200, firstname: 'Annie', lastname: 'Li' };
    const withOther = { ...local, note: 'vip' };
    const outcome = checkEntry(entry({ changed: ['firstname', 'note'] }), withOther, server, strategy);
    expect(outcome.kind).toBe('push'); // the note still goes out either way
    if (outcome.kind !== 'push') return;
    expect(outcome.record).toMatchObject({ firstname, lastname: 'Li', note: 'vip', _v: 200 });
    expect(outcome.changed.includes('firstname')).toBe(pushes);
  });

  it('server-wins with nothing else changed locally: acknowledged with the server record', () => {
    const server = { ...base, _v: 200, firstname: 'Annie' };
    expect(checkEntry(entry(), local, server, 'server-wins')).toEqual({ kind: 'acknowledge', record: server });
  });

  it('a resolver gets local, server, base and the fields, and its record is kept', () => {
    const server = { ...base, _v: 200, firstname: 'Annie' };
    const resolver = vi.fn(() => ({ ...server, firstname: 'Anna-Annie' }));
    const outcome = checkEntry(entry(), local, server, resolver);
    expect(resolver).toHaveBeenCalledWith(local, server, base, { collection: 'customers', id: '9', fields: ['firstname'] });
    expect(outcome).toMatchObject({ kind: 'push', changed: ['firstname'], record: { firstname: 'Anna-Annie', _v: 200 } });
  });

  it('a resolver answering null leaves the conflict unresolved', () => {
    const server = { ...base, _v: 200, firstname: 'Annie' };
    expect(checkEntry(entry(), local, server, () => null).kind).toBe('conflict');
  });

  it('a resolver answering something else is a bug and throws', () => {
    const server = { ...base, _v: 200, firstname: 'Annie' };
    expect(() => checkEntry(entry(), local, server, (() => 42) as never)).toThrow(expect.objectContaining({ code: 'validation', message: expect.stringMatching(/resolver returned a bad choice for customers 9: .* got number 42/) }));
  });

  it('delete/edit: a local delete against a server edit is a conflict on _d', () => {
    const deleted = { ...base, _d: 555 };
    const server = { ...base, _v: 200, lastname: 'Li' };
    const e = entry({ op: 'delete', changed: ['_d'] });
    // The conflict shows the app's side laid on the server state: deleted, with the server's edit.
    expect(checkEntry(e, deleted, server, 'merge')).toEqual({ kind: 'conflict', fields: ['_d'], local: { ...server, _d: 555 }, server });
    expect(checkEntry(e, deleted, server, 'server-wins')).toEqual({ kind: 'acknowledge', record: server });
    expect(checkEntry(e, deleted, server, 'client-wins')).toMatchObject({ kind: 'push', record: { _d: 555, lastname: 'Li' } });
  });

  it('edit/delete: a local edit against a server deletion is a conflict on _d', () => {
    const server = { ...base, _v: 200, _d: 150 };
    // The app's side is its edit on a record that is not deleted (the table's copy shows the deletion).
    const table = { ...server, firstname: 'Anna' };
    expect(checkEntry(entry(), table, server, 'merge')).toEqual({ kind: 'conflict', fields: ['_d'], local: { ...table, _d: 0 }, server });
    expect(checkEntry(entry(), local, server, 'server-wins')).toEqual({ kind: 'acknowledge', record: server });
    // client-wins brings the record back with the app's edit
    expect(checkEntry(entry(), local, server, 'client-wins')).toMatchObject({ kind: 'push', record: { _d: 0, firstname: 'Anna' } });
  });

  it('a product hidden on the server (visible false) counts as deleted', () => {
    const product: StoredRecord = { id: '3', _v: 100, _t: 'products', name: 'Tea', visible: true, _d: 0 };
    const e = entry({ collection: 'products', id: '3', base: product, changed: ['name'] });
    const outcome = checkEntry(e, { ...product, name: 'Green tea' }, { ...product, _v: 200, visible: false }, 'merge');
    expect(outcome).toMatchObject({ kind: 'conflict', fields: ['_d'] });
  });

  it('delete/delete: acknowledged', () => {
    const server = { ...base, _v: 200, _d: 150 };
    expect(checkEntry(entry({ op: 'delete', changed: ['_d'] }), { ...base, _d: 555 }, server, 'merge')).toEqual({
      kind: 'acknowledge',
      record: server,
    });
  });

  it('a create whose id the server already holds with the same values (lost answer) is acknowledged', () => {
    const created: StoredRecord = { ...local, _v: 0 };
    const server: StoredRecord = { ...created, _v: 300, id_c: '1', pgx: 'k' };
    const e = entry({ op: 'create', base: null, changed: ['_d', 'firstname', 'lastname', 'note'] });
    expect(checkEntry(e, created, server, 'merge')).toEqual({ kind: 'acknowledge', record: server });
  });

  it('a create whose id the server holds with other values is a conflict', () => {
    const created: StoredRecord = { ...local, _v: 0 };
    const server: StoredRecord = { ...created, _v: 300, lastname: 'Other' };
    const e = entry({ op: 'create', base: null, changed: ['_d', 'firstname', 'lastname', 'note'] });
    expect(checkEntry(e, created, server, 'merge')).toMatchObject({ kind: 'conflict', fields: ['lastname'] });
  });

  it('a create whose id the server holds with other values is a conflict whatever the strategy; a resolver is not asked', () => {
    const created: StoredRecord = { ...local, _v: 0 };
    const server: StoredRecord = { ...created, _v: 300, lastname: 'Other', note: 'theirs' };
    const e = entry({ op: 'create', base: null, changed: ['_d', 'firstname', 'lastname', 'note'] });
    const resolver = vi.fn(() => 'local' as const);
    for (const strategy of ['server-wins', 'client-wins', resolver] as ConflictStrategy[]) {
      expect(checkEntry(e, created, server, strategy)).toEqual({ kind: 'conflict', fields: ['lastname', 'note'], local: created, server });
    }
    expect(resolver).not.toHaveBeenCalled();
    // Against a deleted record with that id: a conflict on _d, whatever the strategy.
    const gone: StoredRecord = { ...created, _v: 300, _d: 150 };
    expect(checkEntry(e, created, gone, 'client-wins')).toMatchObject({ kind: 'conflict', fields: ['_d'] });
    expect(checkEntry(e, created, gone, 'server-wins')).toMatchObject({ kind: 'conflict', fields: ['_d'] });
  });

  it('an earlier push whose answer was lost but which landed is not mistaken for a concurrent edit', () => {
    // Sent firstname "Anna"; the answer was lost; the app then changed firstname again.
    const sentRecord: StoredRecord = { ...local, _v: 100 };
    const e = withSent(entry(), sentRecord, ['firstname']);
    const nowLocal = { ...local, firstname: 'Anne' };
    const server = { ...local, _v: 250 };
    expect(checkEntry(e, nowLocal, server, 'merge')).toEqual({
      kind: 'push',
      record: { ...server, firstname: 'Anne' },
      base: server,
      changed: ['firstname'],
      rebased: true,
    });
    // ...and when nothing changed since, it is simply acknowledged.
    expect(checkEntry(e, local, server, 'merge')).toEqual({ kind: 'acknowledge', record: server });
  });

  it('after a landed push, the state it wrote is the base: a later edit of another field on both sides is a conflict', () => {
    // Sent firstname "Anna" (the full record, lastname "Lee"); the answer was lost. The app then
    // changed lastname, and so did someone else after the POST landed.
    const e = withSent(entry({ changed: ['firstname', 'lastname'] }), { ...local, _v: 100 }, ['firstname']);
    const nowLocal = { ...local, lastname: 'Local' };
    const server = { ...local, _v: 250, lastname: 'Other' };
    expect(checkEntry(e, nowLocal, server, 'merge')).toEqual({ kind: 'conflict', fields: ['lastname'], local: nowLocal, server });
    expect(checkEntry(e, nowLocal, server, 'server-wins')).toEqual({ kind: 'acknowledge', record: server });
    // A later server edit of a field the app left alone merges.
    const elsewhere = { ...local, _v: 250, note: 'vip' };
    expect(checkEntry(e, nowLocal, elsewhere, 'merge')).toMatchObject({
      kind: 'push',
      record: { firstname: 'Anna', lastname: 'Local', note: 'vip', _v: 250 },
      changed: ['lastname'],
    });
  });

  it('an unanswered push that did not land changes nothing', () => {
    const e = withSent(entry(), { ...local }, ['firstname']);
    expect(checkEntry(e, local, base, 'merge')).toMatchObject({ kind: 'push', rebased: false });
  });
});

describe('knownServerState', () => {
  it('prefers the server state a pull noted on the entry', () => {
    const server = { ...base, _v: 300 };
    expect(knownServerState(entry({ server }), local)).toBe(server);
  });

  it('falls back to a newer table record with the changed fields taken back to the base', () => {
    const table = { ...base, _v: 300, lastname: 'Li', firstname: 'Anna' };
    expect(knownServerState(entry(), table)).toEqual({ ...base, _v: 300, lastname: 'Li' });
  });

  it('else the base', () => {
    expect(knownServerState(entry(), local)).toBe(base);
    expect(knownServerState(entry({ base: null, op: 'create' }), { ...local, _v: 0 })).toBeNull();
  });
});
