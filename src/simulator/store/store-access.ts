/**
 * What a register's operations (`sell`, `moveStock`) need of the simulator's store. `SimStore`
 * implements it; the operations depend on this shape rather than on the store's module, so that
 * the store can build on them without an import circle.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import type { CollectionStore } from '../collection-store.js';
import type { PriceRows } from '../queries/price-rows.js';
import type { SimRecord } from '../record.js';
import type { Rng } from '../rng.js';
import type { SimTable } from '../sim-ids.js';
import type { ShopSales } from '../tenant/generate-tenant.js';

/** The store as the register operations see it. */
export interface StoreAccess {
  /** Draws for the operation's choices; seeded. */
  readonly rng: Rng;
  /** Price rows by product. */
  readonly prices: PriceRows;
  /** The store of one table. */
  collection(name: SimTable): CollectionStore;
  /** The record, or a ValidationError naming the collection and id. */
  require(collection: SimTable, id: Id): SimRecord;
  /** Writes a record as a register would (see `SimStore.write`). */
  write(collection: CollectionName, record: SimRecord): SimRecord;
  /** Number of records of a collection, deleted ones included. */
  count(collection: SimTable): number;
  /** The simulator clock's current time (ms). */
  now(): number;
  /** Where a shop keeps stock (warehouse id). */
  warehouseOfShop(shopId: Id): Id | undefined;
  /** The open shift of a register, if it has one. */
  openShiftOf(registerId: Id): Id | undefined;
  /** Records a register's open shift. */
  setOpenShift(registerId: Id, shiftId: Id): void;
  /** The next receipt number of a register (each register counts its own: 1, 2, ...), taken. */
  nextReceiptNumber(registerId: Id): number;
  /** What a shop sells, for a shop the generator made. */
  shopSales(shopId: Id): ShopSales | undefined;
  /** How much of a product a warehouse holds now (the sum of its stock movements). */
  stockOf(warehouseId: Id, productId: Id): number;
}
