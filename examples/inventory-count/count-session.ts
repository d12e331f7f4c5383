/**
 * A count in progress: how many of each product were counted so far. It lives in localStorage
 * (one per database and warehouse) so that a reload or a flat battery loses nothing; it becomes
 * records (a stock-up and its stock history) only when the count is finished.
 */
export interface CountSession {
  warehouseId: string;
  startedAt: number;
  /** Counted quantity per product id. */
  counts: Record<string, number>;
  /** Product ids, the most recently counted first. */
  order: string[];
}

const key = (scope: string, warehouseId: string) => `inventory-count:session:${scope}:${warehouseId}`;

/** The session of a warehouse, or a new empty one. */
export function loadSession(scope: string, warehouseId: string): CountSession {
  try {
    const raw = localStorage.getItem(key(scope, warehouseId));
    if (raw) {
      const value = JSON.parse(raw) as CountSession;
      if (value && value.warehouseId === warehouseId && typeof value.counts === 'object') return value;
    }
  } catch {
    // A damaged entry starts a new count rather than blocking the app.
  }
  return { warehouseId, startedAt: Date.now(), counts: {}, order: [] };
}

/** Stores the session. */
export function saveSession(scope: string, session: CountSession): void {
  localStorage.setItem(key(scope, session.warehouseId), JSON.stringify(session));
}

/** Forgets the session of a warehouse (after it was booked, or discarded). */
export function clearSession(scope: string, warehouseId: string): void {
  localStorage.removeItem(key(scope, warehouseId));
}

/** The session with `productId` counted `delta` more (never below zero), moved to the top. */
export function addCount(session: CountSession, productId: string, delta: number): CountSession {
  const next = Math.max(0, (session.counts[productId] ?? 0) + delta);
  return setCount(session, productId, next);
}

/** The session with `productId` counted exactly `quantity`, moved to the top. */
export function setCount(session: CountSession, productId: string, quantity: number): CountSession {
  return {
    ...session,
    counts: { ...session.counts, [productId]: quantity },
    order: [productId, ...session.order.filter((id) => id !== productId)],
  };
}
