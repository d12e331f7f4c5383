/**
 * The simulator's data: the generated tenant overlaid with every write, and the operations a
 * register or back office performs on it. Tests use it to look behind the HTTP interface
 * (`sim.store.get(...)`) and to change data while clients sync (`sell`, `editProduct`, `remove`).
 */
import { ValidationError, formatIssues } from '../../errors/index.js';
import type { Id } from '../../ids/id.js';
import { COLLECTIONS, type CollectionName } from '../../schema/collections.js';
import type { SimClock } from '../clock.js';
import { CollectionStore } from '../collection-store.js';
import { IdIndex } from '../id-index.js';
import { hasDateCreated, type SimRecord } from '../record.js';
import type { Rng } from '../rng.js';
import type { IdGenerator } from '../../ids/index.js';
import { newId, simIdGenerator, type SimTable } from '../sim-ids.js';
import type { ShopSales, Tenant } from '../tenant/generate-tenant.js';
import { OrderItems } from '../queries/order-items.js';
import { PriceRows } from '../queries/price-rows.js';
import { StockLedger } from '../queries/stock-ledger.js';
import { Activity, type ActivityOptions } from './activity.js';
import { categoryTree, type CategoryNode } from './category-tree.js';
import { moveStock, type MoveStockOptions, type StockMove } from './move-stock.js';
import { prepareWrite, type PreparedWrite } from './prepare-write.js';
import { sell, type Sale, type SellOptions } from './sell.js';
import type { StoreAccess } from './store-access.js';

/** Keys the server sets itself; a body's values are replaced. */
const OWNED = new Set(['id', 'id_c', '_t', '_v', '_d', 'pgx', 'date_created', '_u_dyn']);

/** The result of committing a write. */
export interface Committed {
  record: SimRecord;
  /** True when the id was new (a create), false for an update. */
  created: boolean;
}

/** The simulated tenant's records and the operations on them. */
export class SimStore implements StoreAccess {
  /** The tenant id (`id_c`) of every record. */
  readonly idC: Id;
  /** Price rows by product (`__price_matrix_model`, get-price-by-product-id). */
  readonly prices: PriceRows;
  /** Order items by order (`orders_details`). */
  readonly items: OrderItems;
  /** Stock totals by warehouse and product (warehouse_status). */
  readonly ledger: StockLedger;
  private readonly stores: Record<SimTable, CollectionStore>;
  private readonly activity: Activity;
  private readonly ids: IdGenerator;
  private activityFailure: unknown;

  constructor(
    private readonly tenant: Tenant,
    private readonly clock: SimClock,
    /** Draws for new ids and sales; seeded. */
    readonly rng: Rng,
  ) {
    this.idC = tenant.idC;
    const stores = {} as Record<SimTable, CollectionStore>;
    for (const [name, table] of Object.entries(tenant.tables) as [SimTable, Tenant['tables'][SimTable]][]) {
      stores[name] = new CollectionStore(name, new IdIndex(table.keys, table.versions), table.generated);
    }
    this.stores = stores;
    this.ids = simIdGenerator(() => clock.now(), rng);
    this.prices = new PriceRows(stores.product_price_matrix);
    this.items = new OrderItems(stores.order_details);
    this.ledger = new StockLedger(stores.stock_history);
    this.activity = new Activity(() => {
      try {
        this.sell();
      } catch (error) {
        // A failing sale stops the activity; the error is kept for activityError(), not thrown
        // into a timer where it would take the process down.
        this.activityFailure = error;
        this.activity.stop();
      }
    });
  }

  /** Closes a sale on a register: order, items, payment and stock rows. See {@link SellOptions}. */
  sell(opts?: SellOptions): Sale {
    return sell(this, opts);
  }

  /** Receives (positive quantity: stock-up) or writes off (negative) stock of a product in a warehouse. */
  moveStock(opts: MoveStockOptions): StockMove {
    return moveStock(this, opts);
  }

  /** Registers start selling on a timer, `ordersPerSecond` sales a second in all. */
  startActivity(opts: ActivityOptions = {}): void {
    this.activityFailure = undefined;
    this.activity.start(opts);
  }

  /** Registers stop selling. */
  stopActivity(): void {
    this.activity.stop();
  }

  /** True while activity mode runs. */
  get activityRunning(): boolean {
    return this.activity.running;
  }

  /** The error that stopped activity mode, if a sale failed. */
  activityError(): unknown {
    return this.activityFailure;
  }

  /** The category tree as `GET categories` answers it: roots with nested `children`. */
  categories(): CategoryNode[] {
    return categoryTree(this.stores.categories);
  }

  /** The store of one table (collections and categories). */
  collection(name: SimTable): CollectionStore {
    return this.stores[name];
  }

  /** Where a shop keeps stock (warehouse id), when the generator or a sale decided it. */
  warehouseOfShop(shopId: Id): Id | undefined {
    return this.tenant.warehouseOfShop.get(shopId);
  }

  /** The open shift of a register, if it has one. */
  openShiftOf(registerId: Id): Id | undefined {
    return this.tenant.openShiftOf.get(registerId);
  }

  /** Records a register's open shift (after a sale had to open one). */
  setOpenShift(registerId: Id, shiftId: Id): void {
    this.tenant.openShiftOf.set(registerId, shiftId);
  }

  /** The next receipt number of a register, taken: each register counts its own receipts. */
  nextReceiptNumber(registerId: Id): number {
    const next = (this.tenant.lastReceiptOf.get(registerId) ?? 0) + 1;
    this.tenant.lastReceiptOf.set(registerId, next);
    return next;
  }

  /** What a shop the generator made sells (its kind's products, its largest order). */
  shopSales(shopId: Id): ShopSales | undefined {
    return this.tenant.shopSales.get(shopId);
  }

  /** How much of a product a warehouse holds now: the sum of its stock movements. */
  stockOf(warehouseId: Id, productId: Id): number {
    return this.ledger.warehouse(warehouseId).get(productId)?.sum ?? 0;
  }

  /** The simulator clock's current time (ms). */
  now(): number {
    return this.clock.now();
  }

  /** Moves the simulator clock forward; returns the new time. */
  advanceClock(ms: number): number {
    return this.clock.advance(ms);
  }

  /** Number of records of a collection, deleted ones included. */
  count(collection: SimTable): number {
    return this.stores[collection].count;
  }

  /**
   * Every record of a collection in ascending id order, deleted ones included, as copies.
   * For `large` tenants this builds every record: fine for a test, not for a hot loop.
   */
  list(collection: SimTable): SimRecord[] {
    const out: SimRecord[] = [];
    for (const record of this.stores[collection].records()) out.push({ ...record });
    return out;
  }

  /** One record (a copy), or undefined. */
  get(collection: SimTable, id: Id): SimRecord | undefined {
    const record = this.stores[collection].get(id);
    return record && { ...record };
  }

  /**
   * Writes a record as a register would: with an existing `id`, the given fields change and the
   * rest stay; without one (or 0), a record is created. The record is validated against the
   * collection's write schema (ValidationError when it fails) and stamped with a new `_v`.
   */
  write(collection: CollectionName, record: SimRecord): SimRecord {
    const existing = record.id !== undefined && record.id !== 0 && record.id !== '0' ? this.stores[collection].get(String(record.id)) : undefined;
    // The stored record's server fields (`pgx`, `_u_dyn`, `_v`) may ride along: validation drops
    // the first two and commit ignores a body's `_v`.
    const body: SimRecord = { _t: collection, ...existing, ...record };
    return this.commitOver(this.prepare(collection, body), existing).record;
  }

  /** Validates a POST body without writing; throws ValidationError naming the fields. */
  prepare(collection: CollectionName, body: unknown): PreparedWrite {
    const result = prepareWrite(collection, body, this.clock.now());
    if (!result.ok) throw new ValidationError(`${collection} record: ${formatIssues(result.issues, { max: 10 })}`, { issues: result.issues });
    return result.write;
  }

  /**
   * Stores a prepared write as a full upsert: the record becomes the validated body plus the
   * server's fields (`id_c`, `_t`, a fresh `_v`, `pgx`, `date_created` kept from the create,
   * `_u_dyn` on orders). A product with `_d` set or a non-zero `deleted` is not `visible`.
   */
  commit(write: PreparedWrite): Committed {
    return this.commitOver(write, write.id === undefined ? undefined : this.stores[write.collection].get(write.id));
  }

  /**
   * {@link commit} given the record stored under `write.id` now (undefined when there is none), so
   * that a generated record is built once per write rather than once per step.
   */
  private commitOver(write: PreparedWrite, existing: SimRecord | undefined): Committed {
    const { collection, fields } = write;
    const store = this.stores[collection];
    const stamp = this.clock.stamp();
    const id = write.id ?? newId(this.ids, collection, (candidate) => store.has(candidate));
    let deleted = typeof fields._d === 'number' ? fields._d : 0;
    const record: SimRecord = { id, id_c: this.idC, _t: collection, _v: stamp, _d: deleted, pgx: `${this.idC}:${id}` };
    if (hasDateCreated(collection)) {
      record.date_created = existing?.date_created ?? fields.date_created ?? stamp;
    } else if (fields.date_created !== undefined) {
      record.date_created = fields.date_created;
    }
    // Validation has dropped `pgx`, `_u_dyn` and `__*` hydrations from `fields`.
    for (const [key, value] of Object.entries(fields)) {
      if (!OWNED.has(key) && value !== undefined) record[key] = value;
    }
    if (collection === 'products') {
      if (deleted === 0 && typeof fields.deleted === 'number' && fields.deleted !== 0) deleted = record._d = stamp;
      if (deleted !== 0) record.visible = false;
    }
    if (collection === 'orders') record._u_dyn = stamp;
    const created = store.put(record, existing);
    return { record, created };
  }

  /** Soft-deletes a record: `_d` becomes the current time (products also turn invisible, in commit). */
  remove(collection: CollectionName, id: Id): SimRecord {
    const existing = this.require(collection, id);
    return this.write(collection, { id: existing.id, _d: this.clock.now() });
  }

  /** Changes fields of a product as the back office would; `date_updated` follows unless given. */
  editProduct(id: Id, changes: SimRecord): SimRecord {
    this.require('products', id);
    return this.write('products', { date_updated: this.clock.now(), ...changes, id });
  }

  /** The record, or a ValidationError naming the collection and id. */
  require(collection: SimTable, id: Id): SimRecord {
    const record = this.stores[collection].get(id);
    if (!record) throw new ValidationError(`${collection}: no record with id ${id}`, { issues: [{ path: ['id'], message: `no ${collection} record with id ${id}` }] });
    return record;
  }

  /** Names of the 14 collections, for iteration. */
  static readonly collections: readonly CollectionName[] = COLLECTIONS;
}
