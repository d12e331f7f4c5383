import { Dexie } from 'dexie';
import { isLive, type Id, type Mirror, type StoredRecord } from 'pos-cloud-mirror';

/**
 * Today's sales of a register, read from the mirror: its orders created since the start of the
 * local day of `now` (through the `[id_cash_register+date_created]` index), not deleted and not
 * canceled.
 */
export async function ordersToday(mirror: Mirror, registerId: Id, now: number): Promise<StoredRecord[]> {
  const startOfDay = new Date(now);
  startOfDay.setHours(0, 0, 0, 0);
  return mirror.db.orders
    .where('[id_cash_register+date_created]')
    .between([registerId, startOfDay.getTime()], [registerId, Dexie.maxKey])
    .filter((o) => isLive(o) && !o.date_canceled)
    .toArray();
}

/** The amount an order was paid, tax included (money x 1000); `total_paid_real` when that is missing, else 0. */
export function orderTotal(order: StoredRecord): number {
  const paid = order.total_paid_tax_incl;
  return typeof paid === 'number' ? paid : typeof order.total_paid_real === 'number' ? order.total_paid_real : 0;
}
