import type { CollectionName } from '../schema/collections.js';
import { HYDRATIONS } from '../sync/pull/index.js';

/**
 * The collections a mirror keeps: those asked for, each followed by the hydration children of a
 * parent among them (`products` brings `product_price_matrix`, `orders` brings `order_details`),
 * which are then pulled, pushed and reconciled on their own like any other.
 */
export function mirroredCollections(asked: readonly CollectionName[]): CollectionName[] {
  const mirrored: CollectionName[] = [];
  for (const collection of asked) {
    if (!mirrored.includes(collection)) mirrored.push(collection);
    const child = HYDRATIONS[collection]?.child;
    if (child !== undefined && !asked.includes(child) && !mirrored.includes(child)) mirrored.push(child);
  }
  return mirrored;
}
