import { badge, h, replace } from '../shared/dom.js';
import { dateTime } from '../shared/format.js';
import type { Mirror, StoredRecord } from '../shared/library.js';
import type { GatedClient } from '../shared/token-gate.js';
import { bookCount } from './book-count.js';
import { addCount, clearSession, loadSession, saveSession, setCount, type CountSession } from './count-session.js';
import { cachedExpected, expectedQuantities, recordBookedCount, refreshExpected, type ExpectedStock } from './expected-stock.js';
import type { CountSetup } from './setup-view.js';

/** Everything the count screen needs. */
export interface CountViewContext {
  mirror: Mirror;
  client: GatedClient;
  setup: CountSetup;
  /** Keys this device's local state (one per database). */
  scope: string;
  locale: string | undefined;
  onChangeWarehouse(): void;
}

/** Finds the product a scanned or typed code means: barcode, EAN or SKU, else a unique name match. */
async function findProduct(mirror: Mirror, code: string): Promise<StoredRecord | undefined> {
  const text = code.trim();
  if (!text) return undefined;
  const exact = await mirror.query.productByCode(text);
  if (exact) return exact;
  const byName = await mirror.query.searchProducts(text, { limit: 2 });
  return byName.length === 1 ? byName[0] : undefined;
}

/**
 * The count screen: scan or type codes, see counted against expected (from the warehouse
 * report cached on this device), finish to book the count as a stock-up with stock history rows
 * that sync when the network is there. Every step works offline.
 */
export function countView(el: HTMLElement, ctx: CountViewContext): () => void {
  const { mirror, setup, scope, locale } = ctx;
  let session: CountSession = loadSession(scope, setup.warehouseId);
  let expected: ExpectedStock = cachedExpected(scope, setup.warehouseId);
  let waiting = new Set<unknown>();
  const disposers: (() => void)[] = [];

  const scan = h('input', { class: 'big', placeholder: 'Scan or type a barcode, EAN or name', autocomplete: 'off', 'data-test': 'scan' });
  const feedback = h('div', { class: 'feedback', 'data-test': 'scan-feedback', 'aria-live': 'polite' }, h('span', { class: 'muted' }, 'Each scan adds one. Press Enter after typing a code. Works without network.'));
  const summary = h('div', { class: 'card summary' });
  const table = h('div', { class: 'card counted' });
  const history = h('div', { class: 'card history' });

  const update = (next: CountSession) => {
    session = next;
    saveSession(scope, session);
    void drawCounts();
  };

  const onScan = async () => {
    const code = scan.value;
    scan.value = '';
    if (!code.trim()) return;
    const product = await findProduct(mirror, code);
    if (!product) {
      feedback.className = 'feedback bad';
      feedback.textContent = `No product with code “${code.trim()}”`;
    } else {
      update(addCount(session, product.id, 1));
      feedback.className = 'feedback ok';
      feedback.textContent = `${String(product.name)}: ${session.counts[product.id]} counted`;
    }
    scan.focus();
  };
  scan.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') void onScan();
  });

  const refresh = async () => {
    try {
      expected = await refreshExpected(ctx.client, scope, setup.warehouseId, async () => {
        const waitingNow = await waitingCounts(mirror);
        return (id) => !waitingNow.has(id);
      });
    } catch {
      // Offline or no token yet: the cached report (if any) stays in use.
    }
    void drawCounts();
  };

  const finish = async () => {
    const products = Object.keys(session.counts);
    if (products.length === 0) return;
    try {
      const booked = await bookCount(mirror, session, expectedQuantities(expected), {
        idEmployee: setup.employeeId,
        idShop: await shopOf(mirror, setup.registerId),
        idCashRegister: setup.registerId,
      });
      expected = recordBookedCount(scope, setup.warehouseId, { stockupId: booked.stockupId, corrections: booked.corrections });
      clearSession(scope, setup.warehouseId);
      session = loadSession(scope, setup.warehouseId);
      feedback.className = 'feedback ok';
      feedback.textContent = `Count booked (${products.length} products). It is sent to the server when online.`;
      feedback.dataset.stockupId = booked.stockupId;
      void drawCounts();
    } catch (error) {
      feedback.className = 'feedback bad';
      feedback.textContent = `Not booked: ${(error as Error).message}`;
    }
  };

  const drawCounts = async () => {
    const ids = session.order;
    const products = await mirror.db.products.bulkGet(ids);
    const exp = expectedQuantities(expected);
    const units = ids.reduce((s, id) => s + (session.counts[id] ?? 0), 0);
    const differences = ids.filter((id) => (session.counts[id] ?? 0) !== (exp[id] ?? 0)).length;
    replace(
      summary,
      h('div', { class: 'summary-figures' },
        figure('Products counted', String(ids.length), 'count-products'),
        figure('Units counted', units.toLocaleString(locale), 'count-units'),
        figure('Differences', String(differences), 'count-differences')),
      h('div', { class: 'muted small expected-note', 'data-test': 'expected-note' },
        expected.fetchedAt === undefined
          ? 'No stock report on this device yet: connect once to download it.'
          : `Expected quantities from the stock report of ${dateTime(expected.fetchedAt, locale)}, kept on this device${expected.unreported.length ? `, with ${expected.unreported.length} count${expected.unreported.length === 1 ? '' : 's'} booked since` : ''}.`),
      h('div', { class: 'actions' },
        h('button', { class: 'primary', 'data-test': 'finish', disabled: ids.length === 0, onclick: () => void finish() }, 'Finish count'),
        h('button', { onclick: () => void refresh(), 'data-test': 'refresh-expected' }, 'Refresh report'),
        h('button', { class: 'danger', disabled: ids.length === 0, onclick: () => { clearSession(scope, setup.warehouseId); update(loadSession(scope, setup.warehouseId)); } }, 'Discard')),
    );
    if (ids.length === 0) {
      replace(table, h('div', { class: 'empty' }, 'Nothing counted yet. Scan the first item.'));
      return;
    }
    replace(
      table,
      h('table', null,
        h('thead', null, h('tr', null, h('th', null, 'Product'), h('th', null, 'Code'), h('th', { class: 'right' }, 'Expected'), h('th', { class: 'right' }, 'Counted'), h('th', { class: 'right' }, 'Difference'))),
        h('tbody', null,
          ids.map((id, i) => {
            const p = products[i];
            const counted = session.counts[id] ?? 0;
            const want = exp[id];
            const diff = counted - (want ?? 0);
            const qty = h('input', { type: 'number', min: '0', step: 'any', value: String(counted), class: 'qty', 'data-test': 'counted-input',
              onchange: (e: Event) => update(setCount(session, id, Math.max(0, Number((e.target as HTMLInputElement).value) || 0))) });
            return h('tr', { 'data-test': 'counted-row', 'data-product-id': id },
              h('td', null, h('strong', null, String(p?.name ?? id))),
              h('td', { class: 'num muted' }, String(p?.barcode ?? p?.ean13 ?? '')),
              h('td', { class: 'right num', 'data-test': 'expected' }, want === undefined ? '—' : String(want)),
              h('td', { class: 'right' },
                h('div', { class: 'stepper' },
                  h('button', { onclick: () => update(addCount(session, id, -1)), 'aria-label': 'one less' }, '−'),
                  qty,
                  h('button', { onclick: () => update(addCount(session, id, 1)), 'aria-label': 'one more' }, '+'))),
              h('td', { class: 'right num', 'data-test': 'difference' },
                diff === 0 ? badge('matches', 'ok') : badge(diff > 0 ? `+${diff}` : String(diff), diff > 0 ? 'info' : 'warn')));
          }))),
    );
  };

  const historySub = mirror.live(() => loadHistory(mirror, setup.warehouseId)).subscribe({
    next: (rows) => {
      // A count that just reached the server: fetch the report again, which now includes it.
      const nowWaiting = new Set<unknown>(rows.filter((r) => r.waiting).map((r) => r.stockup.id));
      if (rows.some((r) => waiting.has(r.stockup.id) && !r.waiting)) void refresh();
      waiting = nowWaiting;
      replace(history,
        h('div', { class: 'card-head' }, h('h2', null, 'Counts of this warehouse')),
        rows.length === 0
          ? h('div', { class: 'empty' }, 'No counts booked yet.')
          : h('table', null,
              h('tbody', null,
                rows.map(({ stockup, waiting }) =>
                  h('tr', { 'data-test': 'booked-count', 'data-stockup-id': stockup.id },
                    h('td', { class: 'num' }, dateTime(stockup.date_stocked, locale)),
                    h('td', null, String(stockup.note ?? '')),
                    h('td', { class: 'right' }, waiting ? badge('Waiting to send', 'warn', 'booked-state') : badge('On the server', 'ok', 'booked-state')))))));
    },
    error: () => undefined,
  });
  disposers.push(() => historySub.unsubscribe());

  const head = h('div', { class: 'count-head' },
    h('button', { onclick: ctx.onChangeWarehouse, 'data-test': 'change-warehouse' }, '← Change warehouse'));
  replace(el, head, h('div', { class: 'count-layout' }, h('div', { class: 'card scan-card' }, h('div', { class: 'card-head' }, h('h2', null, 'Scan')), h('div', { class: 'card-body' }, scan, feedback)), summary), table, history);

  void drawCounts();
  void refresh();
  const onOnline = () => void refresh();
  window.addEventListener('online', onOnline);
  disposers.push(() => window.removeEventListener('online', onOnline));
  scan.focus();
  return () => disposers.forEach((d) => d());
}

function figure(label: string, value: string, test: string): HTMLElement {
  return h('div', { class: 'figure' }, h('span', { class: 'muted small' }, label), h('strong', { 'data-test': test }, value));
}

async function shopOf(mirror: Mirror, registerId: string): Promise<string> {
  const register = await mirror.db.cash_registers.get(registerId);
  return typeof register?.id_shop === 'string' ? register.id_shop : '0';
}

/** Stock-ups whose count is not wholly on the server: the stock-up or one of its rows waits in the outbox. */
async function waitingCounts(mirror: Mirror): Promise<Set<unknown>> {
  const outbox = await mirror.db._sync_outbox.where('collection').anyOf('stockup', 'stock_history').toArray();
  const rows = await mirror.db.stock_history.bulkGet(outbox.filter((e) => e.collection === 'stock_history').map((e) => e.id));
  return new Set<unknown>([...outbox.filter((e) => e.collection === 'stockup').map((e) => e.id), ...rows.map((r) => r?.id_stockup)]);
}

async function loadHistory(mirror: Mirror, warehouseId: string): Promise<{ stockup: StoredRecord; waiting: boolean }[]> {
  const [stockups, waitingStockups] = await Promise.all([
    mirror.db.stockup.where('id_warehouse').equals(warehouseId).filter((s) => typeof s.note === 'string' && s.note.startsWith('Inventory count')).toArray(),
    waitingCounts(mirror),
  ]);
  const stamp = (s: StoredRecord) => (typeof s.date_stocked === 'number' ? s.date_stocked : 0);
  return stockups
    .sort((a, b) => stamp(b) - stamp(a))
    .slice(0, 8)
    .map((stockup) => ({ stockup, waiting: waitingStockups.has(stockup.id) }));
}
