/**
 * What a device's user does, through the mirror's public API only (`save`, `remove`,
 * `resolveConflict`, and `db` for reading): edits of one field, creates of records with the
 * children they need (in one transaction), deletions, and the resolution of a conflict. Each is
 * written to the ledger once the mirror said it is saved.
 */
import type { ConflictRow, StoredRecord } from '../../src/db/sync-rows.js';
import type { Id } from '../../src/ids/id.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import { CREATE_MARKER, markerOf, type Ledger, type Writer } from './ledger.js';
import type { CreateKind } from './operations.js';
import { EDIT_FIELDS, HOT_RECORDS, fieldKind, uniqueValue, type EditedCollection, type RemovedCollection } from './soak-fields.js';
import { liveRecords, pickAny, pickTarget } from './targets.js';

/** The outcome of one user action: done, or nothing to do it on yet (an empty mirror, no conflict). */
export type EditOutcome = 'done' | 'nothing-to-do';

/**
 * An edit about to commit: the values it writes and the record it read, in its own transaction,
 * before writing them (what it writes over).
 */
export interface EditIntent {
  step: number;
  writer: Writer;
  collection: CollectionName;
  id: Id;
  before: Record<string, unknown>;
  values: Record<string, unknown>;
}

/** A device's user: edits through one mirror, noted in the ledger. */
export class DeviceEdits {
  /**
   * @param beforeCommit told of an edit inside its transaction, before it commits: a page can
   *   report it while a reload between the commit and the ledger's note would lose the note.
   */
  constructor(
    private readonly mirror: () => Mirror,
    private readonly writer: Writer,
    private readonly ledger: Ledger,
    private readonly beforeCommit?: (edit: EditIntent) => void,
  ) {}

  /**
   * Writes a new unique value into `field` of a hot record (or another one). The record is read
   * in the edit's own transaction: what the ledger notes as seen before is what the edit wrote
   * over, also while another tab of the same database edits it at the same moment.
   */
  async edit(step: number, collection: EditedCollection, field: string, hot: boolean, pick: number): Promise<EditOutcome> {
    const kind = fieldKind(collection, field);
    const values = { [field]: uniqueValue(kind, this.writer, step) };
    const target = await this.inTransaction([collection], async () => {
      const found = pickTarget(await this.live(collection), hot, pick);
      if (found) {
        await this.mirror().save(collection, { id: found.id, ...values });
        this.beforeCommit?.({ step, writer: this.writer, collection, id: found.id, before: found, values });
      }
      return found;
    });
    if (!target) return 'nothing-to-do';
    this.ledger.wrote(step, this.writer, collection, target.id, target, values);
    return 'done';
  }

  /** Deletes a record that is not hot (none while a collection holds only hot ones), read in the deletion's transaction. */
  async remove(step: number, collection: RemovedCollection, pick: number): Promise<EditOutcome> {
    const target = await this.inTransaction([collection], async () => {
      const live = await this.live(collection);
      const found = live.length > HOT_RECORDS ? pickTarget(live, false, pick) : undefined;
      if (found) await this.mirror().remove(collection, found.id);
      return found;
    });
    if (!target) return 'nothing-to-do';
    this.ledger.removed(step, this.writer, collection, target.id, markerOf(target));
    return 'done';
  }

  /**
   * Runs `work` in one transaction over `collections` and the sync tables a save or a resolution
   * writes (the outbox, conflicts, and `_sync_meta`, where a tab that does not lead tells the
   * leader of its edits): the mirror's own transactions join it.
   */
  private inTransaction<T>(collections: readonly CollectionName[], work: () => Promise<T>): Promise<T> {
    const db = this.mirror().db;
    return db.transaction('rw', [...collections.map((c) => db.table(c)), db._sync_outbox, db._sync_conflicts, db._sync_meta], work);
  }

  /** Creates records: a customer, a product with its price, a price, an order with items and stock rows, a warehouse, a stock-up with rows. */
  async create(step: number, what: CreateKind, pick: number): Promise<EditOutcome> {
    const mirror = this.mirror();
    const db = mirror.db;
    const made: { collection: CollectionName; id: Id; values: Record<string, unknown>; marker: string; refs: Record<string, string> }[] = [];
    const text = (part: number) => uniqueValue('text', this.writer, step, part);
    const number = (part: number) => uniqueValue('number', this.writer, step, part) as number;
    const save = async (collection: CollectionName, fixed: Record<string, unknown>, values: Record<string, unknown>) => {
      const marker = `${step}.${made.length}`;
      // The soak writes any collection's records, with a marker field of its own (a field the schema does not know).
      const id = await mirror.save<CollectionName, Record<string, unknown>>(collection, { ...fixed, ...values, [CREATE_MARKER]: marker });
      // Fields pointing at a record made in this create: the checks follow them if it moves.
      const refs: Record<string, string> = {};
      for (const [field, value] of Object.entries(fixed)) {
        const parent = made.find((m) => m.id === value);
        if (parent) refs[field] = parent.marker;
      }
      made.push({ collection, id, values, marker, refs });
      return id;
    };
    const refs = await this.references(pick);
    // The outbox's touch row (`_sync_meta`) too: a tab that does not lead tells the leader of its edits there.
    const tables = [db.customers, db.products, db.product_price_matrix, db.orders, db.order_details, db.warehouses, db.stockup, db.stock_history, db._sync_outbox, db._sync_conflicts, db._sync_meta];
    const done = await db.transaction('rw', tables, async (): Promise<boolean> => {
      switch (what) {
        case 'customer':
          await save('customers', { company: null }, { firstname: text(0), lastname: text(1), note_internal: text(2) });
          return true;
        case 'warehouse':
          await save('warehouses', {}, { name: text(0) });
          return true;
        case 'product-with-price': {
          const product = await save('products', { date_updated: Date.now(), id_category: refs?.product.id_category ?? '0' }, { name: text(0), sku: text(1) });
          await save('product_price_matrix', { id_product: product, date_starts: Date.now(), currency: 'CZK', unit_price_base_tax_incl: 49.9 }, { unit_price_regular_tax_excl: number(2), reduction_amount_a_tax_excl: number(3) });
          return true;
        }
        case 'price':
          if (!refs) return false;
          await save('product_price_matrix', { id_product: refs.product.id, date_starts: Date.now(), currency: 'CZK', unit_price_base_tax_incl: 59.9 }, { unit_price_regular_tax_excl: number(0), reduction_amount_a_tax_excl: number(1) });
          return true;
        case 'order-with-items': {
          if (!refs) return false;
          const common = { id_shop: refs.shop, id_cash_register: refs.register, id_shift: refs.shift, id_employee: refs.employee };
          const order = await save('orders', { ...common, id_employee_served: refs.employee, id_park_location: '0', currency: 'CZK', date_closed: Date.now() }, { note: text(0), tags: text(1) });
          for (let item = 1; item <= 1 + Math.floor(pick * 3); item++) {
            await save(
              'order_details',
              { ...common, id_order: order, id_product: refs.product.id, id_category: refs.product.id_category ?? '0', id_warehouse: refs.warehouse, currency: 'CZK', product_name: String(refs.product.name), order_number: item },
              { note: text(item * 2), product_quantity: number(item * 2 + 1) },
            );
          }
          await save(
            'stock_history',
            { ...common, id_order: order, id_warehouse: refs.warehouse, id_record: refs.product.id, stock_type: 1, stock_history_type: 1, date_stocked: Date.now() },
            { note: text(7), quanity: -number(7) },
          );
          return true;
        }
        case 'stockup-with-rows': {
          if (!refs) return false;
          const common = { id_shop: refs.shop, id_cash_register: refs.register, id_employee: refs.employee, id_warehouse: refs.warehouse };
          const stockup = await save('stockup', { ...common, stock_history_type: 2, date_stocked: Date.now() }, { note: text(0), invoice_number: text(1) });
          await save('stock_history', { ...common, id_stockup: stockup, id_record: refs.product.id, stock_type: 1, stock_history_type: 2, date_stocked: Date.now() }, { note: text(2), quanity: number(3) });
          return true;
        }
      }
    });
    if (!done) return 'nothing-to-do';
    // Told it is saved: the transaction committed.
    for (const { collection, id, values, marker, refs } of made) {
      this.ledger.created(step, this.writer, collection, id, marker, refs);
      this.ledger.wrote(step, this.writer, collection, id, null, values, marker);
    }
    return 'done';
  }

  /** Notes every conflict row the device holds now. */
  async noteConflicts(step: number): Promise<ConflictRow[]> {
    const rows = await this.mirror().conflicts();
    for (const row of rows) this.ledger.conflict(step, this.writer, row.collection, row.id, row.fields);
    return rows;
  }

  /** Resolves a conflict row of the device (the one at `pick`), keeping its own values or the server's. */
  async resolve(step: number, pick: number, choice: 'local' | 'server'): Promise<EditOutcome> {
    return this.inTransaction(COLLECTIONS, async () => {
      const row = pickAny(await this.noteConflicts(step), pick);
      if (!row) return 'nothing-to-do';
      await this.resolveRow(step, row, choice);
      return 'done';
    });
  }

  /**
   * Resolves one conflict row and notes what that did: for `'local'`, the device's values of its
   * changed fields written over the server's; for `'server'`, which of its edits were dropped.
   * The row and the entry are read in the resolution's transaction.
   */
  async resolveRow(step: number, row: ConflictRow, choice: 'local' | 'server'): Promise<void> {
    const mirror = this.mirror();
    const { changed, whole } = await this.inTransaction(COLLECTIONS, async () => {
      const current = (await mirror.db._sync_conflicts.get(row.key)) ?? row;
      const entry = (await mirror.pending()).find((e) => e.collection === row.collection && e.id === row.id);
      await mirror.resolveConflict(row.key, choice);
      row = current;
      return { changed: entry?.changed ?? current.fields, whole: current.base === null || current.fields.includes('_d') };
    });
    if (choice === 'server') {
      this.ledger.resolvedConflict(step, this.writer, row.collection, row.id, 'server', whole ? changed : row.fields);
      return;
    }
    this.ledger.resolvedConflict(step, this.writer, row.collection, row.id, 'local', changed);
    const marker = markerOf(row.local) ?? markerOf(row.server);
    const written: Record<string, unknown> = {};
    for (const field of changed) {
      if (field === '_d' && row.local && row.local._d !== 0) this.ledger.removed(step, this.writer, row.collection, row.id, marker);
      else if (field in (row.local ?? {}) && isWrittenField(row.collection, field)) written[field] = row.local![field];
    }
    this.ledger.wrote(step, this.writer, row.collection, row.id, row.server, written, marker);
  }

  private async live(collection: CollectionName): Promise<StoredRecord[]> {
    return liveRecords(collection, await this.mirror().db.table<StoredRecord, string>(collection).toArray());
  }

  /** What a new order or stock-up refers to: a register with its shop, a shift, an employee, a product, a warehouse. */
  private async references(pick: number): Promise<{ shop: Id; register: Id; shift: Id; employee: Id; product: StoredRecord; warehouse: Id } | undefined> {
    const registers = await this.live('cash_registers');
    const register = pickAny(registers, pick);
    const shifts = await this.live('shifts');
    const shift = shifts.find((s) => s.id_cash_register === register?.id) ?? pickAny(shifts, pick);
    const employee = pickAny(await this.live('employees'), pick);
    const product = pickAny(await this.live('products'), pick);
    const warehouse = pickAny(await this.live('warehouses'), pick);
    if (!register || !shift || !employee || !product || !warehouse) return undefined;
    return { shop: String(register.id_shop ?? '0'), register: register.id, shift: shift.id, employee: employee.id, product, warehouse: warehouse.id };
  }
}

/** True for a field the soak writes in `collection` (the ledger follows only those). */
function isWrittenField(collection: CollectionName, field: string): boolean {
  return (EDIT_FIELDS[collection as EditedCollection] ?? []).some(([name]) => name === field);
}
