import type { Mirror, StoredRecord } from 'pos-cloud-mirror';

/** A count booked at a warehouse, and whether part of it still waits to reach the server. */
export interface BookedCountRow {
  stockup: StoredRecord;
  waiting: boolean;
}

/**
 * Stock-ups whose count is not wholly on the server: the stock-up or one of its rows is among the
 * edits the server has not acknowledged (`mirror.pending()`).
 */
export async function waitingCounts(mirror: Mirror): Promise<Set<unknown>> {
  const pending = await mirror.pending();
  const stockups = pending.filter((e) => e.collection === 'stockup').map((e) => e.id);
  const rows = await mirror.db.stock_history.bulkGet(pending.filter((e) => e.collection === 'stock_history').map((e) => e.id));
  return new Set<unknown>([...stockups, ...rows.map((r) => r?.id_stockup)]);
}

/** The latest counts booked at a warehouse (by anyone), newest first. */
export async function loadBookedCounts(mirror: Mirror, warehouseId: string): Promise<BookedCountRow[]> {
  const [stockups, waiting] = await Promise.all([
    mirror.db.stockup.where('id_warehouse').equals(warehouseId).filter((s) => typeof s.note === 'string' && s.note.startsWith('Inventory count')).toArray(),
    waitingCounts(mirror),
  ]);
  const stamp = (s: StoredRecord) => (typeof s.date_stocked === 'number' ? s.date_stocked : 0);
  return stockups
    .sort((a, b) => stamp(b) - stamp(a))
    .slice(0, 8)
    .map((stockup) => ({ stockup, waiting: waiting.has(stockup.id) }));
}

/** The shop of a register (the spec requires it on a stock-up), `'0'` when unknown. */
export async function shopOf(mirror: Mirror, registerId: string): Promise<string> {
  const register = await mirror.db.cash_registers.get(registerId);
  return typeof register?.id_shop === 'string' ? register.id_shop : '0';
}
