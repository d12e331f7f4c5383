import type { CollectionName } from '../../schema/collections.js';
import { DAY_MS } from '../pull/edge.js';

/** The history collections a window may bound (`order_details` follow their `orders`). */
export const WINDOWED_COLLECTIONS = ['orders', 'transactions', 'shifts', 'stockup', 'stock_history'] as const;

/** A collection {@link HistoryWindow} names. */
export type WindowedCollection = (typeof WINDOWED_COLLECTIONS)[number];

/**
 * The history window (the option `historyWindow`): per history collection, how many days back the
 * mirror keeps its records (`{ orders: 30, stock_history: 7 }`). `orders` bounds `order_details`
 * too, so an order's items come and go with it. A collection not named keeps its whole history.
 */
export type HistoryWindow = Partial<Record<WindowedCollection, number>>;

/**
 * The window's edge of `collection` at `now`: the time (ms) before which it keeps no record, or
 * `undefined` when the window does not bound it.
 */
export function windowEdgeOf(window: HistoryWindow | undefined, collection: CollectionName, now: number): number | undefined {
  const days = window?.[(collection === 'order_details' ? 'orders' : collection) as WindowedCollection];
  return days === undefined ? undefined : now - days * DAY_MS;
}
