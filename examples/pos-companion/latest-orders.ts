import type { Mirror } from 'pos-cloud-mirror';

/** How often the syncing tab asks each register for its latest orders (ms). */
const LATEST_ORDERS_INTERVAL_MS = 3_000;

/**
 * Keeps the sales overview live: while this tab is the one that syncs, it polls
 * `orders/latest/{id_cash_register}` for every register (the spec's endpoint for a live overview
 * of completed sales); the orders land in the local database and every tab's live query shows
 * them. When another tab takes over, this one stops polling. Returns a function that stops it all.
 */
export function watchRegistersWhileLeader(mirror: Mirror, intervalMs = LATEST_ORDERS_INTERVAL_MS): () => void {
  const watching = new Map<string, () => void>();
  let leader = false;
  let registers: string[] = [];

  const sync = () => {
    const wanted = new Set(leader ? registers : []);
    for (const [id, stop] of watching) {
      if (!wanted.has(id)) {
        stop();
        watching.delete(id);
      }
    }
    for (const id of wanted) if (!watching.has(id)) watching.set(id, mirror.watchLatestOrders(id, { intervalMs }));
  };

  const subs = [
    mirror.status.subscribe((s) => {
      const next = s.leader && s.online && s.phase !== 'auth-error';
      if (next !== leader) {
        leader = next;
        sync();
      }
    }),
    mirror
      .live(async () => (await mirror.db.cash_registers.toArray()).filter((r) => !r._d).map((r) => r.id))
      .subscribe({ next: (ids) => { registers = ids; sync(); }, error: () => undefined }),
  ];
  return () => {
    for (const s of subs) s.unsubscribe();
    leader = false;
    sync();
  };
}
