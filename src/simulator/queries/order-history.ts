/**
 * `POST reports/generic/order_history` (the spec leaves its answer open; this is the simulator's
 * choice). Orders created in [date_start, date_end), optionally of one register and/or shop,
 * deleted ones left out, ascending by id:
 *
 * ```json
 * { "data": [{ "id", "id_cash_register", "id_shop", "id_payment", "currency", "date_created",
 *              "date_closed", "date_canceled", "day", "total_paid_tax_incl", "total_paid_tax_excl" }],
 *   "totals": { "orders", "canceled", "total_paid_tax_incl", "total_paid_tax_excl" },
 *   "truncated": false, "source": "order_history" }
 * ```
 *
 * `day` is the order's calendar day (YYYY-MM-DD) in the requested `timezone` (UTC when none).
 * `totals` cover every matching order and leave canceled ones out of the sums; `data` stops at
 * 2000 rows (the service's internal query cap), with `truncated` true when it did.
 */
import type { Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';

/** At most this many rows in `data`. */
export const ORDER_HISTORY_MAX_ROWS = 2000;
/** The value of `source` in order_history answers. */
const ORDER_HISTORY_SOURCE = 'order_history';

/** Validated request of the report. */
export interface OrderHistoryQuery {
  dateStart: number;
  dateEnd: number;
  timezone: string;
  idCashRegister?: Id | undefined;
  idShop?: Id | undefined;
}

/** Builds the report. */
export function orderHistory(orders: CollectionStore, q: OrderHistoryQuery): SimRecord {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: q.timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const data: SimRecord[] = [];
  const totals = { orders: 0, canceled: 0, total_paid_tax_incl: 0, total_paid_tax_excl: 0 };
  for (let pos = 0; pos < orders.count; pos++) {
    const created = Number(orders.peek(pos, 'date_created'));
    if (!(created >= q.dateStart && created < q.dateEnd)) continue;
    if (q.idCashRegister !== undefined && orders.peek(pos, 'id_cash_register') !== q.idCashRegister) continue;
    if (q.idShop !== undefined && orders.peek(pos, 'id_shop') !== q.idShop) continue;
    if (orders.peek(pos, '_d') !== 0) continue;
    const order = orders.recordAt(pos);
    const canceled = order.date_canceled !== null && order.date_canceled !== undefined;
    totals.orders++;
    if (canceled) totals.canceled++;
    else {
      totals.total_paid_tax_incl += Number(order.total_paid_tax_incl ?? 0);
      totals.total_paid_tax_excl += Number(order.total_paid_tax_excl ?? 0);
    }
    if (data.length < ORDER_HISTORY_MAX_ROWS) {
      data.push({
        id: order.id,
        id_cash_register: order.id_cash_register,
        id_shop: order.id_shop,
        id_payment: order.id_payment,
        currency: order.currency,
        date_created: created,
        date_closed: order.date_closed ?? null,
        date_canceled: order.date_canceled ?? null,
        day: day.format(created),
        total_paid_tax_incl: order.total_paid_tax_incl ?? 0,
        total_paid_tax_excl: order.total_paid_tax_excl ?? 0,
      });
    }
  }
  return { data, totals, truncated: totals.orders > data.length, source: ORDER_HISTORY_SOURCE };
}
