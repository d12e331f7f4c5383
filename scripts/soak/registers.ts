/**
 * The simulator's registers and back office during a soak run, writing the server's data
 * directly: edits of the same records the devices edit, deletions, deliveries, and live sales
 * (on a timer, while devices sync). Every create is counted per collection, so the checks can
 * tell a duplicate from a sale; every edit goes to the ledger.
 */
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import type { Simulator } from '../../src/simulator/index.js';
import { markerOf, type Ledger } from './ledger.js';
import { HOT_RECORDS, fieldKind, uniqueValue, type EditedCollection, type RemovedCollection } from './soak-fields.js';
import { liveRecords, pickAny, pickTarget } from './targets.js';

/** What the registers did. */
export interface RegisterCounts {
  edits: number;
  removes: number;
  sales: number;
  deliveries: number;
  /** Sales the simulator refused (none expected), with the first reason. */
  failedSales: number;
  firstSaleFailure?: string;
}

/** The registers and back office of one simulator. */
export class Registers {
  readonly counts: RegisterCounts = { edits: 0, removes: 0, sales: 0, deliveries: 0, failedSales: 0 };
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly sim: Simulator,
    private readonly ledger: Ledger,
  ) {}

  /** The back office writes a new unique value into `field` of a hot record (or another one). */
  edit(step: number, collection: EditedCollection, field: string, hot: boolean, pick: number): boolean {
    const target = pickTarget(liveRecords(collection, this.sim.store.list(collection)), hot, pick);
    if (!target) return false;
    const kind = fieldKind(collection, field);
    const values = { [field]: uniqueValue(kind, 'register', step) };
    const id = String(target.id);
    if (collection === 'products') this.sim.store.editProduct(id, values);
    else this.sim.store.write(collection, { id, ...values });
    this.ledger.wrote(step, 'register', collection, id, target, values);
    this.counts.edits++;
    return true;
  }

  /** The back office deletes a record that is not hot. */
  remove(step: number, collection: RemovedCollection, pick: number): boolean {
    const live = liveRecords(collection, this.sim.store.list(collection));
    if (live.length <= HOT_RECORDS) return false;
    const target = pickTarget(live, false, pick)!;
    this.sim.store.remove(collection, String(target.id));
    this.ledger.removed(step, 'register', collection, String(target.id), markerOf(target));
    this.counts.removes++;
    return true;
  }

  /** A register closes a sale (an order, its items, a payment, stock rows, maybe a delivery first). */
  sell(): void {
    try {
      this.counting(() => this.sim.store.sell());
      this.counts.sales++;
    } catch (error) {
      // Never thrown into a timer; the report shows it.
      this.counts.failedSales++;
      this.counts.firstSaleFailure ??= error instanceof Error ? error.message : String(error);
    }
  }

  /** A delivery of a product into a warehouse (a stock-up and its row). */
  delivery(pick: number): boolean {
    const product = pickAny(liveRecords('products', this.sim.store.list('products')), pick);
    const warehouse = pickAny(liveRecords('warehouses', this.sim.store.list('warehouses')), 1 - pick);
    if (!product || !warehouse) return false;
    this.counting(() => this.sim.store.moveStock({ idProduct: String(product.id), idWarehouse: String(warehouse.id), quantity: 12, note: 'soak delivery' }));
    this.counts.deliveries++;
    return true;
  }

  /** Registers sell on a timer, about `perSecond` sales a second, until {@link stopSelling}. */
  startSelling(perSecond: number): void {
    this.stopSelling();
    this.timer = setInterval(() => this.sell(), Math.round(1000 / perSecond));
  }

  /** The registers stop selling. */
  stopSelling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs a write of the registers (synchronous: nothing else writes meanwhile) and counts what it created. */
  private counting(write: () => void): void {
    const before = this.collectionCounts();
    write();
    const created = new Map<CollectionName, number>();
    for (const [collection, n] of this.collectionCounts()) created.set(collection, n - before.get(collection)!);
    this.ledger.registerCreated(created);
  }

  private collectionCounts(): Map<CollectionName, number> {
    return new Map(COLLECTIONS.map((c) => [c, this.sim.store.count(c)]));
  }
}
