import type { Dexie, Table, Transaction } from 'dexie';
import { PosCloudError } from '../errors/index.js';

/**
 * Runs `scope` in one transaction over `tables` and hands it `db` as that transaction sees it:
 * every table of the transaction, however `scope` reaches it (`db.orders`, `db.table('orders')`,
 * `db.collection('orders')`, `db.syncTables`), is bound to the transaction itself.
 *
 * The rule it keeps (docs/design.md, "Inside a transaction"): code in a transaction writes to the
 * transaction it was given, never to whatever Dexie takes as the current one. Dexie finds the
 * current transaction through a zone that follows a native `await` only for a bounded number of
 * microtasks: a promise that settles in a later task than Dexie expects (one made by a storage
 * layer, a DBCore middleware's `async` function, a timer, a fetch) leaves the code after it
 * outside the zone. A plain `db.table(...)` write there opens a transaction of its own, committed
 * on its own, while the transaction it belonged to, left with no request, commits without it
 * (Dexie's `PrematureCommitError`, or worse, nothing said). A bound table either writes in its
 * transaction or fails loudly once that transaction is over. Awaiting anything but the
 * transaction's own requests inside `scope` still commits it early; see `putInPieces` for the one
 * helper that waits on a request to send more.
 */
export function inTransaction<D extends Dexie, T>(db: D, mode: 'r' | 'rw', tables: Table | readonly Table[], scope: (tx: D) => Promise<T> | T): Promise<T> {
  const list = Array.isArray(tables) ? [...(tables as readonly Table[])] : [tables as Table];
  // Called with a view of an enclosing transaction (an app's `mirror.transaction`, a save inside
  // it): the scope joins that transaction, whatever Dexie's zone says by then.
  const enclosing = (db as Partial<Bound>)[ENCLOSING];
  if (enclosing) return joined(enclosing, db, mode, list, scope);
  return db.transaction(mode, list, async (transaction) => scope(boundTo(db, transaction)));
}

/** Where a view made by {@link boundTo} keeps its transaction. */
const ENCLOSING = Symbol('pos-cloud-mirror:enclosing-transaction');

interface Bound {
  [ENCLOSING]: Transaction;
}

/** Runs `scope` in `enclosing`, which must cover `tables` in a mode at least as strong as `mode`. */
async function joined<D extends Dexie, T>(enclosing: Transaction, view: D, mode: 'r' | 'rw', tables: readonly Table[], scope: (tx: D) => Promise<T> | T): Promise<T> {
  const missing = tables.map((t) => t.name).filter((name) => !enclosing.storeNames.includes(name));
  if (missing.length > 0 || (mode === 'rw' && enclosing.mode !== 'readwrite')) {
    const what = missing.length > 0 ? `does not cover ${missing.join(', ')}` : 'is read-only';
    throw new PosCloudError(`a write inside a transaction that ${what}: open the transaction over every table its writes need`);
  }
  return scope(view);
}

/**
 * `db` as `transaction` sees it: its tables (by property, `table(name)`, and any getter or method
 * of `db` that reaches them through `this`) bound to `transaction`; tables outside it, and
 * everything else, as they are on `db`.
 */
export function boundTo<D extends Dexie>(db: D, transaction: Transaction): D {
  const names: ReadonlySet<string> = new Set(transaction.storeNames);
  const table = (name: string): Table => (names.has(name) ? transaction.table(name) : db.table(name));
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === ENCLOSING) return transaction;
      if (prop === 'table') return table;
      if (typeof prop === 'string' && names.has(prop)) return transaction.table(prop);
      // Getters and methods run with the view as `this`, so the tables they reach are bound too.
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
