import type { GatedClient } from '../shared/token-gate.js';

/** A booked count whose corrections the cached report does not include yet. */
export interface UnreportedCount {
  stockupId: string;
  /** `quanity` booked per product id. */
  corrections: Record<string, number>;
}

/**
 * What the warehouse should hold: the service's `warehouse_status` report (`qty_sum` per
 * product), cached on this device, plus the counts booked here since that report was fetched.
 */
export interface ExpectedStock {
  warehouseId: string;
  /** When the report was fetched (local ms); undefined when it never was. */
  fetchedAt: number | undefined;
  /** `qty_sum` per product id, from the report. */
  quantities: Record<string, number>;
  /** Counts booked on this device that the report does not reflect yet. */
  unreported: UnreportedCount[];
}

const key = (scope: string, warehouseId: string) => `inventory-count:expected:${scope}:${warehouseId}`;

/** The expected stock kept on this device (an empty one when there is none). */
export function cachedExpected(scope: string, warehouseId: string): ExpectedStock {
  try {
    const raw = localStorage.getItem(key(scope, warehouseId));
    const value = raw ? (JSON.parse(raw) as ExpectedStock) : undefined;
    if (value && value.warehouseId === warehouseId && Array.isArray(value.unreported)) return value;
  } catch {
    // A damaged entry is replaced by the next report.
  }
  return { warehouseId, fetchedAt: undefined, quantities: {}, unreported: [] };
}

function store(scope: string, expected: ExpectedStock): ExpectedStock {
  localStorage.setItem(key(scope, expected.warehouseId), JSON.stringify(expected));
  return expected;
}

/**
 * The quantity expected now per product: the report's, corrected by the counts booked here that
 * it does not include yet. Without that correction, a second count made before the first one
 * reached the server (or before the report was fetched again) would correct the stock twice.
 */
export function expectedQuantities(expected: ExpectedStock): Record<string, number> {
  const out = { ...expected.quantities };
  for (const count of expected.unreported) {
    for (const [product, delta] of Object.entries(count.corrections)) out[product] = Math.round(((out[product] ?? 0) + delta) * 1000) / 1000;
  }
  return out;
}

/** Notes a count booked on this device, until a report fetched after it reached the server includes it. */
export function recordBookedCount(scope: string, warehouseId: string, count: UnreportedCount): ExpectedStock {
  const expected = cachedExpected(scope, warehouseId);
  return store(scope, { ...expected, unreported: [...expected.unreported.filter((c) => c.stockupId !== count.stockupId), count] });
}

/**
 * Fetches `POST reports/generic/warehouse_status` and caches it on this device (localStorage:
 * product ids and numbers, no token), for counting offline. `reachedServer` gives a predicate
 * telling which booked counts had fully reached the server before the request: only those are
 * included in the new report. It is called at most once, after the cached counts are read, so a
 * count booked meanwhile is checked too.
 */
export async function refreshExpected(
  client: GatedClient,
  scope: string,
  warehouseId: string,
  reachedServer: () => Promise<(stockupId: string) => boolean>,
): Promise<ExpectedStock> {
  const before = cachedExpected(scope, warehouseId);
  const included = new Set<string>();
  if (before.unreported.length > 0) {
    const onServer = await reachedServer();
    for (const count of before.unreported) if (onServer(count.stockupId)) included.add(count.stockupId);
  }
  const report = await client.warehouseStatus({ id_warehouse: warehouseId });
  const quantities: Record<string, number> = {};
  for (const row of report.data) {
    if (typeof row.qty_sum === 'number') quantities[row.id_product] = row.qty_sum;
  }
  // Counts booked while the request ran are read again, so none is lost.
  const latest = cachedExpected(scope, warehouseId);
  return store(scope, { warehouseId, fetchedAt: Date.now(), quantities, unreported: latest.unreported.filter((c) => !included.has(c.stockupId)) });
}
