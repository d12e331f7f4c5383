import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLiveQuery } from 'pos-cloud-mirror/react';
import type { Mirror, StoredRecord } from 'pos-cloud-mirror';
import type { GatedClient } from '../shared/token-gate.js';
import { bookCount } from './book-count.js';
import { loadBookedCounts, shopOf } from './booked-counts.js';
import { BookedList } from './booked-list.js';
import { addCount, clearSession, loadSession, saveSession, setCount, type CountSession } from './count-session.js';
import { CountSummary } from './count-summary.js';
import { CountedTable } from './counted-table.js';
import { expectedQuantities } from './expected-stock.js';
import { ScanBox, type Feedback } from './scan-box.js';
import type { CountSetup } from './setup.js';
import { useExpectedStock } from './use-expected-stock.js';
import { ViewBoundary } from './view-boundary.js';

/** Everything the count screen needs. */
export interface CountScreenProps {
  mirror: Mirror;
  client: GatedClient;
  setup: CountSetup;
  /** Keys this device's local state (one per database). */
  scope: string;
  locale: string | undefined;
  /** Where the warehouse's name goes (the top bar, outside the screen). */
  titleEl: HTMLElement;
  onChangeWarehouse(): void;
}

/**
 * The count screen: scan or type codes, see counted against expected (from the warehouse report
 * cached on this device), finish to book the count as a stock-up with stock history rows that
 * sync when the network is there. Every step works offline.
 */
export function CountScreen({ mirror, client, setup, scope, locale, titleEl, onChangeWarehouse }: CountScreenProps) {
  const warehouseId = setup.warehouseId;
  const [session, update] = useCountSession(scope, warehouseId);
  const { expected, refresh, noteBooked } = useExpectedStock(mirror, client, scope, warehouseId);
  const quantities = useMemo(() => expectedQuantities(expected), [expected]);
  const booked = useLiveQuery((m) => loadBookedCounts(m, warehouseId), [warehouseId], []);
  const warehouse = useLiveQuery((m) => m.db.warehouses.get(warehouseId), [warehouseId]);
  const [feedback, setFeedback] = useState<Feedback>({ kind: 'hint' });

  // A count that just reached the server: fetch the report again, which now includes it.
  const waitingBefore = useRef(new Set<unknown>());
  useEffect(() => {
    if (booked.some((r) => waitingBefore.current.has(r.stockup.id) && !r.waiting)) void refresh();
    waitingBefore.current = new Set(booked.filter((r) => r.waiting).map((r) => r.stockup.id));
  }, [booked, refresh]);

  const finish = async () => {
    const products = Object.keys(session.counts).length;
    if (products === 0) return;
    try {
      const count = await bookCount(mirror, session, quantities, {
        idEmployee: setup.employeeId,
        idShop: await shopOf(mirror, setup.registerId),
        idCashRegister: setup.registerId,
      });
      noteBooked({ stockupId: count.stockupId, corrections: count.corrections });
      clearSession(scope, warehouseId);
      update(() => loadSession(scope, warehouseId));
      setFeedback({ kind: 'booked', stockupId: count.stockupId, products, waiting: true });
    } catch (error) {
      setFeedback({ kind: 'not-booked', reason: (error as Error).message });
    }
  };

  // The booked count's line follows it to the server.
  const shown: Feedback =
    feedback.kind === 'booked' ? { ...feedback, waiting: booked.find((r) => r.stockup.id === feedback.stockupId)?.waiting ?? true } : feedback;

  return (
    <>
      {createPortal(String(warehouse?.name ?? ''), titleEl)}
      <div className="count-head">
        <button onClick={onChangeWarehouse} data-test="change-warehouse">
          ← Change warehouse
        </button>
      </div>
      <div className="count-layout">
        <ScanBox feedback={shown} onFeedback={setFeedback} onCount={(product: StoredRecord) => update((s) => addCount(s, product.id, 1)).counts[product.id] ?? 0} />
        <CountSummary
          session={session}
          expected={expected}
          quantities={quantities}
          locale={locale}
          onFinish={() => void finish()}
          onRefresh={() => void refresh()}
          onDiscard={() => {
            clearSession(scope, warehouseId);
            update(() => loadSession(scope, warehouseId));
          }}
        />
      </div>
      {/* The parts that show records: one that cannot leaves the scan box and the figures working. */}
      <ViewBoundary what="the products counted" retryOn={session}>
        <CountedTable
          session={session}
          expected={quantities}
          onSet={(id, quantity) => update((s) => setCount(s, id, quantity))}
          onStep={(id, delta) => update((s) => addCount(s, id, delta))}
        />
      </ViewBoundary>
      <ViewBoundary what="the counts of this warehouse" retryOn={booked}>
        <BookedList rows={booked} locale={locale} />
      </ViewBoundary>
    </>
  );
}

/**
 * The count in progress, kept in localStorage on every change. `update` applies a change to the
 * latest session at once (two scans in quick succession both count) and returns the new one.
 */
function useCountSession(scope: string, warehouseId: string): [CountSession, (change: (s: CountSession) => CountSession) => CountSession] {
  const [session, setSession] = useState(() => loadSession(scope, warehouseId));
  const latest = useRef(session);
  const update = (change: (s: CountSession) => CountSession) => {
    const next = change(latest.current);
    latest.current = next;
    saveSession(scope, next);
    setSession(next);
    return next;
  };
  return [session, update];
}
