/**
 * The mirror's surface typed by the collection an app names: checked by the compiler (vitest's
 * type-checking mode), so a change that breaks inference fails `npm test`.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createMirror,
  type CollectionName,
  type Conflict,
  type DefaultSyncGroupName,
  type SyncGroupStatus,
  type RecordSyncState,
  type Customer,
  type Id,
  type Mirror,
  type MirrorTransaction,
  type Order,
  type OrderDetail,
  type PendingEdit,
  type Product,
  type ReadonlyObservableValue,
  type ReconcileReport,
  type StoredRecordOf,
  type SyncReport,
  type SyncStatus,
  type TakeOverReport,
} from '../../src/index.js';
import { useConflicts, useGroupSynced, useLiveQuery, usePending, useRecordSyncState, useRemove, useSave } from '../../src/react/index.js';

declare const mirror: Mirror;

describe('Mirror.save', () => {
  it('takes a create with the fields the service needs, or an id and any subset of the fields', () => {
    expectTypeOf(mirror.save('customers', { company: null, phone_number: '+420 777 000 111' })).toEqualTypeOf<Promise<Id>>();
    void mirror.save('customers', { id: '1', phone_number: '+420 777 000 111' });
    void mirror.save('orders', { id: '7', note: 'table 4' });
  });

  it('refuses a field the schema does not name, and a create without a required field', () => {
    // @ts-expect-error: the field is phone_number
    void mirror.save('customers', { phone: '1' });
    // @ts-expect-error: a customer create needs company (null allowed)
    void mirror.save('customers', { firstname: 'Ola' });
    // @ts-expect-error: a value of the wrong type
    void mirror.save('customers', { id: '1', visible: 'yes' });
    // @ts-expect-error: an unknown collection
    void mirror.save('clients', { company: null });
  });

  it('takes a field the schema does not know when the app names it', () => {
    void mirror.save<'customers', { loyalty_tier: string }>('customers', { id: '1', loyalty_tier: 'gold' });
  });
});

describe('Mirror.transaction', () => {
  it('hands the scope a transaction whose saves are typed as the mirror\'s, and resolves with what the scope returns', () => {
    const booked = mirror.transaction(['stockup', 'stock_history'], async (tx) => {
      expectTypeOf(tx).toEqualTypeOf<MirrorTransaction>();
      expectTypeOf(tx.db.stockup.get('1')).resolves.toEqualTypeOf<StoredRecordOf<'stockup'> | undefined>();
      const id = await tx.save('stockup', { id: '1', note: 'counted' });
      // @ts-expect-error: the field is note
      await tx.save('stockup', { id: '1', notes: 'counted' });
      return [id];
    });
    expectTypeOf(booked).toEqualTypeOf<Promise<Id[]>>();
    // @ts-expect-error: an unknown collection
    void mirror.transaction(['stockups'], async () => undefined);
  });
});

describe('the calls that take a signal', () => {
  it('take { signal } beside what they took before, and hand back what they did', () => {
    const { signal } = new AbortController();
    expectTypeOf(mirror.syncNow).parameter(0).toEqualTypeOf<{ collections?: CollectionName[]; signal?: AbortSignal } | undefined>();
    expectTypeOf(mirror.syncNow({ collections: ['customers'], signal })).toEqualTypeOf<Promise<SyncReport>>();
    expectTypeOf(mirror.resync({ signal })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(mirror.reconcile({ signal })).toEqualTypeOf<Promise<ReconcileReport[]>>();
    expectTypeOf(mirror.takeOverEdits('pos-cloud-mirror:old', { signal })).toEqualTypeOf<Promise<TakeOverReport>>();
    // @ts-expect-error: a signal is an AbortSignal, not its controller
    void mirror.syncNow({ signal: new AbortController() });
  });
});

describe('the typed reads', () => {
  it('types each table by its collection', () => {
    expectTypeOf(mirror.db.customers.get('1')).resolves.toEqualTypeOf<StoredRecordOf<'customers'> | undefined>();
    expectTypeOf<StoredRecordOf<'customers'>>().toMatchTypeOf<Customer>();
    expectTypeOf(mirror.db.collection('orders').toArray()).resolves.toEqualTypeOf<StoredRecordOf<'orders'>[]>();
    expectTypeOf<StoredRecordOf<'orders'>['id_cash_register']>().toEqualTypeOf<Order['id_cash_register']>();
  });

  it('types the query helpers by what they return', () => {
    expectTypeOf(mirror.query.ordersOfRegister('1')).resolves.toEqualTypeOf<StoredRecordOf<'orders'>[]>();
    expectTypeOf(mirror.query.itemsOfOrder('1')).resolves.items.toMatchTypeOf<OrderDetail>();
    expectTypeOf(mirror.query.productByCode('859')).resolves.toEqualTypeOf<StoredRecordOf<'products'> | undefined>();
    expectTypeOf(mirror.query.searchProducts('rohlik')).resolves.items.toMatchTypeOf<Product>();
  });

  it('types pending edits and conflicts by their collection once narrowed', async () => {
    const edits = await mirror.pending();
    expectTypeOf(edits).toEqualTypeOf<PendingEdit[]>();
    const edit = edits[0]!;
    if (edit.collection === 'customers') expectTypeOf(edit.base).toEqualTypeOf<StoredRecordOf<'customers'> | null>();
    const conflict = (await mirror.conflicts())[0]!;
    expectTypeOf(conflict).toEqualTypeOf<Conflict>();
    if (conflict.collection === 'orders') expectTypeOf(conflict.server).toEqualTypeOf<StoredRecordOf<'orders'> | null>();
    expectTypeOf(conflict.localChanged).toEqualTypeOf<string[]>();
    const state = await mirror.syncStateOf('customers', '1');
    if (state.state === 'rejected') expectTypeOf(state.reason).toEqualTypeOf<string>();
  });

  it('says in the status when the oldest edit waiting was made, and when each collection was last pulled', () => {
    const status = mirror.status.value;
    expectTypeOf(status.oldestPendingEditAt).toEqualTypeOf<number | undefined>();
    expectTypeOf(status.lastPulledAt).toEqualTypeOf<Partial<Record<CollectionName, number>>>();
    expectTypeOf(status.lastPulledAt.customers).toEqualTypeOf<number | undefined>();
    // @ts-expect-error: the category tree has no checkpoint of its own
    void status.lastPulledAt.categories;
    expectTypeOf(status.storage).toEqualTypeOf<'open' | 'reopening'>();
  });

  it('keeps the status and the progress read-only', () => {
    expectTypeOf(mirror.status).toEqualTypeOf<ReadonlyObservableValue<SyncStatus>>();
    // @ts-expect-error: only the library sets the status
    mirror.status.set(mirror.status.value);
  });
});

describe('sync groups', () => {
  it('name the default groups in whenSynced and the status of a mirror made without syncGroups', () => {
    const made = createMirror({ baseUrl: 'https://pos.example', token: 't', userAgent: 'tests' });
    expectTypeOf(made.whenSynced).parameter(0).toEqualTypeOf<DefaultSyncGroupName>();
    expectTypeOf(made.status.value.groups.history).toEqualTypeOf<SyncGroupStatus>();
    // @ts-expect-error: no such group
    void made.whenSynced('sales');
  });

  it("name an app's own groups, as syncGroups gives them", () => {
    const made = createMirror({
      baseUrl: 'https://pos.example',
      token: 't',
      userAgent: 'tests',
      syncGroups: [
        { name: 'sales', collections: ['orders', 'order_details'] },
        { name: 'rest', collections: ['shops'] },
      ],
    });
    expectTypeOf(made.whenSynced).parameter(0).toEqualTypeOf<'sales' | 'rest'>();
    expectTypeOf(made.status.value.groups.sales.initialDone).toEqualTypeOf<boolean>();
    // @ts-expect-error: the default groups are not this mirror's
    void made.whenSynced('reference');
    // @ts-expect-error: an unknown collection
    createMirror({ baseUrl: 'https://pos.example', token: 't', userAgent: 'tests', syncGroups: [{ name: 'x', collections: ['shoes'] }] });
  });

  it('let a mirror typed without names wait for any group, and the hook take any name', () => {
    expectTypeOf(mirror.whenSynced).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(mirror.whenSynced('reference', { signal: AbortSignal.timeout(1) })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(useGroupSynced('history')).toEqualTypeOf<boolean>();
    expectTypeOf(useGroupSynced('sales')).toEqualTypeOf<boolean>();
  });
});

describe('the React hooks', () => {
  it('type what they hand back and take by the collection', () => {
    const { save } = useSave('customers');
    expectTypeOf(save).parameter(0).toEqualTypeOf<Parameters<typeof mirror.save<'customers'>>[1]>();
    // @ts-expect-error: the field is phone_number
    void save({ phone: '1' });
    expectTypeOf(useRemove('orders').remove).parameter(0).toEqualTypeOf<Id>();
    expectTypeOf(usePending()).toEqualTypeOf<PendingEdit[]>();
    expectTypeOf(useConflicts().conflicts).toEqualTypeOf<Conflict[]>();
    expectTypeOf(useRecordSyncState('customers', '1')).toEqualTypeOf<RecordSyncState | undefined>();
    expectTypeOf(useLiveQuery((m) => m.db.customers.toArray(), [], [])).toEqualTypeOf<StoredRecordOf<'customers'>[] | never[]>();
  });
});
