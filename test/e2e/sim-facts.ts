/**
 * What the simulator holds, read straight from its store: the truth the end-to-end tests compare
 * the browser's screens against.
 */
import type { createSimulator } from '../../src/simulator/index.js';

type Simulator = Awaited<ReturnType<typeof createSimulator>>;
type Rec = Record<string, unknown> & { id: string };

const live = (r: Rec) => !r._d && r.visible !== false;

/** Registers that are not deleted or hidden. */
export function registersOf(sim: Simulator): Rec[] {
  return (sim.store.list('cash_registers') as Rec[]).filter(live);
}

/** The newest order (by `date_created`) of a register. */
export function latestOrderOf(sim: Simulator, idCashRegister: string): Rec | undefined {
  const orders = (sim.store.list('orders') as Rec[]).filter((o) => !o._d && o.id_cash_register === idCashRegister);
  // Newest first; on a tie the larger id first, as the app's compound index returns them.
  orders.sort((a, b) => Number(b.date_created) - Number(a.date_created) || b.id.length - a.id.length || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return orders[0];
}

/** A visible product with a barcode and exactly one price row in force now, with that row. */
export function livePriceRow(sim: Simulator, now = Date.now()): { product: Rec; price: Rec } {
  const rows = (sim.store.list('product_price_matrix') as Rec[]).filter(
    (r) => !r._d && Number(r.date_starts) <= now && (r.date_expires === null || r.date_expires === undefined || Number(r.date_expires) > now),
  );
  const byProduct = new Map<string, Rec[]>();
  for (const row of rows) byProduct.set(String(row.id_product), [...(byProduct.get(String(row.id_product)) ?? []), row]);
  const names = new Map<string, number>();
  const products = (sim.store.list('products') as Rec[]).filter(live);
  for (const p of products) names.set(String(p.name).slice(0, 6), (names.get(String(p.name).slice(0, 6)) ?? 0) + 1);
  const product = products.find(
    (p) => typeof p.barcode === 'string' && p.barcode !== '' && byProduct.get(p.id)?.length === 1 && names.get(String(p.name).slice(0, 6)) === 1,
  );
  if (!product) throw new Error('the simulator has no visible product with a barcode, a unique name and one price row in force');
  return { product, price: byProduct.get(product.id)![0]! };
}

/** How many applied POSTs carried record `id` of `collection`. */
export function postsOf(sim: Simulator, collection: string, id: string): number {
  return sim.requests.timesPosted(collection, id);
}

/**
 * A register's sales since `since` (ms) as the Sales view counts them: its orders created since
 * then, not deleted and not canceled, and what they were paid, tax included (money x 1000), with
 * the currency of the register's shop.
 */
export function salesSinceOf(sim: Simulator, idCashRegister: string, since: number): { count: number; total: number; currency: string | undefined } {
  const orders = (sim.store.list('orders') as Rec[]).filter((o) => !o._d && !o.date_canceled && o.id_cash_register === idCashRegister && Number(o.date_created) >= since);
  const paid = (o: Rec) => (typeof o.total_paid_tax_incl === 'number' ? o.total_paid_tax_incl : typeof o.total_paid_real === 'number' ? o.total_paid_real : 0);
  const register = sim.store.get('cash_registers', idCashRegister) as Rec | undefined;
  const shop = register && (sim.store.get('shops', String(register.id_shop)) as Rec | undefined);
  return { count: orders.length, total: orders.reduce((sum, o) => sum + paid(o), 0), currency: typeof shop?.currency === 'string' ? shop.currency : undefined };
}
