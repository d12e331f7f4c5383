import type { GatedClient } from '../shared/token-gate.js';

/** What the warehouse should hold, from the service's `warehouse_status` report. */
export interface ExpectedStock {
  warehouseId: string;
  /** When the report was fetched (local ms). */
  fetchedAt: number;
  /** Expected quantity (`qty_sum`) per product id. */
  quantities: Record<string, number>;
}

const key = (scope: string, warehouseId: string) => `inventory-count:expected:${scope}:${warehouseId}`;

/** The report cached on this device, if any: what the count compares against offline. */
export function cachedExpected(scope: string, warehouseId: string): ExpectedStock | undefined {
  try {
    const raw = localStorage.getItem(key(scope, warehouseId));
    const value = raw ? (JSON.parse(raw) as ExpectedStock) : undefined;
    return value && value.warehouseId === warehouseId ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fetches `POST reports/generic/warehouse_status` for the warehouse and caches the quantities
 * on this device (localStorage: no token, only product ids and numbers), for counting offline.
 */
export async function refreshExpected(client: GatedClient, scope: string, warehouseId: string): Promise<ExpectedStock> {
  const report = await client.warehouseStatus({ id_warehouse: warehouseId });
  const quantities: Record<string, number> = {};
  for (const row of report.data) {
    if (typeof row.id_product === 'string' && typeof row.qty_sum === 'number') quantities[row.id_product] = row.qty_sum;
  }
  const expected: ExpectedStock = { warehouseId, fetchedAt: Date.now(), quantities };
  localStorage.setItem(key(scope, warehouseId), JSON.stringify(expected));
  return expected;
}
