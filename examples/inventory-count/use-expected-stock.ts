import { useCallback, useEffect, useState } from 'react';
import type { Mirror } from 'pos-cloud-mirror';
import type { GatedClient } from '../shared/token-gate.js';
import { waitingCounts } from './booked-counts.js';
import { cachedExpected, recordBookedCount, refreshExpected, type ExpectedStock, type UnreportedCount } from './expected-stock.js';

/** What {@link useExpectedStock} gives the count screen. */
export interface ExpectedStockState {
  expected: ExpectedStock;
  /** Fetches the warehouse report again (kept as it was when offline or without a token). */
  refresh(): Promise<void>;
  /** Notes a count just booked here, until a report includes it. */
  noteBooked(count: UnreportedCount): void;
}

/**
 * The warehouse's expected stock: the cached report at once, fetched again on mount and whenever
 * the browser comes back online.
 */
export function useExpectedStock(mirror: Mirror, client: GatedClient, scope: string, warehouseId: string): ExpectedStockState {
  const [expected, setExpected] = useState(() => cachedExpected(scope, warehouseId));
  const refresh = useCallback(async () => {
    try {
      const next = await refreshExpected(client, scope, warehouseId, async () => {
        const waiting = await waitingCounts(mirror);
        return (id) => !waiting.has(id);
      });
      setExpected(next);
    } catch {
      // Offline or no token yet: the cached report (if any) stays in use.
    }
  }, [mirror, client, scope, warehouseId]);

  useEffect(() => {
    setExpected(cachedExpected(scope, warehouseId));
    void refresh();
    const onOnline = () => void refresh();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [refresh, scope, warehouseId]);

  const noteBooked = useCallback((count: UnreportedCount) => setExpected(recordBookedCount(scope, warehouseId, count)), [scope, warehouseId]);
  return { expected, refresh, noteBooked };
}
