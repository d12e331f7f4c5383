/**
 * `orders/latest`: the newest orders, by id descending, optionally of one register and one
 * payment form. Deleted orders (`_d` != 0) are left out: the endpoint is a live overview of
 * sales. It walks back from the newest id and stops at `limit` matches.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';

/** How many orders `orders/latest` returns (spec: exactly the latest 40). */
export const LATEST_ORDERS = 40;

/** Filter of {@link latestOrders}. */
export interface LatestOrdersFilter {
  idCashRegister?: Id | undefined;
  idPayment?: number | undefined;
}

/** The newest `limit` orders matching the filter. */
export function latestOrders(orders: CollectionStore, filter: LatestOrdersFilter, limit = LATEST_ORDERS): SimRecord[] {
  const out: SimRecord[] = [];
  for (let pos = orders.count - 1; pos >= 0 && out.length < limit; pos--) {
    if (filter.idCashRegister !== undefined && orders.peek(pos, 'id_cash_register') !== filter.idCashRegister) continue;
    if (filter.idPayment !== undefined && Number(orders.peek(pos, 'id_payment')) !== filter.idPayment) continue;
    if (orders.peek(pos, '_d') !== 0) continue;
    out.push(orders.recordAt(pos));
  }
  return out;
}
