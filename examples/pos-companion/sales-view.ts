import { badge, h, replace } from '../shared/dom.js';
import { money, paymentLabel, quantity, when } from '../shared/format.js';
import { isLive, type Mirror, type StoredRecord } from 'pos-cloud-mirror';
import { orderTotal, ordersToday } from '../shared/sales.js';
import { showLive } from '../shared/view-problem.js';
import { showSalesNote } from './sales-note.js';

/** Orders shown per register. */
const ORDERS_PER_REGISTER = 8;
/** An order this recent is highlighted as just sold (ms). */
const FRESH_MS = 15_000;

/** One register's card: its latest orders and today's takings. */
interface RegisterSales {
  register: StoredRecord;
  shop: StoredRecord | undefined;
  orders: StoredRecord[];
  todayCount: number;
  todayTotal: number;
}

/** Reads every register's latest orders and today's takings from the local database. */
async function loadRegisterSales(mirror: Mirror, now: number): Promise<RegisterSales[]> {
  const db = mirror.db;
  const [registers, shops] = await Promise.all([db.cash_registers.toArray(), db.shops.toArray()]);
  const shopsById = new Map<unknown, StoredRecord>(shops.map((s) => [s.id, s]));
  const shopName = (r: StoredRecord) => String(shopsById.get(r.id_shop)?.name ?? '');
  const live = registers.filter((r) => isLive(r) && r.visible !== false).sort((a, b) => shopName(a).localeCompare(shopName(b)) || String(a.name).localeCompare(String(b.name)));
  return Promise.all(
    live.map(async (register) => {
      const [orders, today] = await Promise.all([
        mirror.query.ordersOfRegister(register.id, { limit: ORDERS_PER_REGISTER }),
        ordersToday(mirror, register.id, now),
      ]);
      return {
        register,
        shop: shopsById.get(register.id_shop),
        orders,
        todayCount: today.length,
        todayTotal: today.reduce((sum, o) => sum + orderTotal(o), 0),
      };
    }),
  );
}

/**
 * The live overview of sales: one card per register with its latest orders, updating as the
 * registers sell (the syncing tab polls `orders/latest` for each register; every tab re-renders
 * through a live query). During a first sync a note above says whether today's figures are
 * complete yet, and how far the older history has come.
 */
export function salesView(el: HTMLElement, mirror: Mirror, locale: string | undefined): () => void {
  const note = h('div', { class: 'notice sales-note', 'data-test': 'sales-note', role: 'status', hidden: true });
  const summary = h('div', { class: 'sales-summary' });
  const grid = h('div', { class: 'register-grid', 'data-test': 'registers' });
  replace(el, note, summary, grid);
  let stopNote: (() => void) | undefined;

  const render = (rows: RegisterSales[]) => {
    // The note follows the status from the first figures shown: until the mirror has read its
    // checkpoints (just after it opens, before this view's reads answer), no group looks complete,
    // and an app opened on a complete copy would flash "still arriving".
    stopNote ??= showSalesNote(note, mirror);
    const now = Date.now();
    if (rows.length === 0) {
      replace(summary);
      replace(grid, h('div', { class: 'card empty' }, 'No registers yet. They appear after the first sync.'));
      return;
    }
    // Shops may keep different currencies: takings are summed per currency, never across.
    const byCurrency = new Map<string, number>();
    for (const r of rows) {
      const currency = typeof r.shop?.currency === 'string' ? r.shop.currency : '';
      byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + r.todayTotal);
    }
    const takings = [...byCurrency].map(([currency, total]) => money(total, currency || undefined, locale)).join(' · ');
    const count = rows.reduce((s, r) => s + r.todayCount, 0);
    replace(
      summary,
      h('div', { class: 'stat card' }, h('span', { class: 'muted' }, 'Takings today'), h('strong', { class: 'money', 'data-test': 'takings-today' }, takings)),
      h('div', { class: 'stat card' }, h('span', { class: 'muted' }, 'Sales today'), h('strong', { class: 'num', 'data-test': 'sales-today' }, quantity(count, locale))),
      h('div', { class: 'stat card' }, h('span', { class: 'muted' }, 'Registers'), h('strong', { class: 'num' }, String(rows.length))),
    );
    replace(grid, rows.map((row) => registerCard(row, now, locale)));
  };

  const sub = showLive(mirror.live(() => loadRegisterSales(mirror, Date.now())), 'the sales', render, (notice) => {
    replace(summary);
    replace(grid, notice);
  });
  return () => {
    stopNote?.();
    sub.unsubscribe();
  };
}

function registerCard(row: RegisterSales, now: number, locale: string | undefined): HTMLElement {
  const currencyOf = (o: StoredRecord) => (typeof o.currency === 'string' ? o.currency : (row.shop?.currency as string | undefined));
  const place = [row.shop?.name, row.register.location_name].filter((p) => typeof p === 'string' && p).join(' · ');
  return h(
    'article',
    { class: 'card register', 'data-test': 'register', 'data-register-id': row.register.id },
    h('div', { class: 'card-head' },
      h('div', null, h('h3', null, String(row.register.name ?? 'Register')), h('div', { class: 'muted small' }, place)),
      h('div', { class: 'register-today' },
        h('span', { class: 'money', 'data-test': 'register-takings-today' }, money(row.todayTotal, row.shop?.currency as string | undefined, locale)),
        h('span', { class: 'muted small', 'data-test': 'register-sales-today', 'data-count': row.todayCount }, `${row.todayCount} sale${row.todayCount === 1 ? '' : 's'} today`))),
    row.orders.length === 0
      ? h('div', { class: 'empty' }, 'No sales yet')
      : h('table', { class: 'orders' },
          h('thead', null, h('tr', null, h('th', null, 'Time'), h('th', null, 'Receipt'), h('th', null, 'Payment'), h('th', { class: 'right' }, 'Total'))),
          h('tbody', null,
            row.orders.map((o) => {
              const created = typeof o.date_created === 'number' ? o.date_created : 0;
              return h('tr', { class: now - created < FRESH_MS ? 'fresh' : undefined, 'data-test': 'order', 'data-order-id': o.id },
                h('td', { class: 'num' }, when(o.date_created, now, locale)),
                h('td', null, receiptLabel(o)),
                h('td', null, o.date_canceled ? badge('Canceled', 'bad') : paymentLabel(o.id_payment)),
                h('td', { class: 'right money', 'data-test': 'order-total' }, money(orderTotal(o), currencyOf(o), locale)));
            }))),
  );
}

function receiptLabel(order: StoredRecord): string {
  if (typeof order.order_serial_number === 'number') return `#${order.order_serial_number}`;
  if (typeof order.short_code === 'string' && order.short_code) return order.short_code;
  return `…${order.id.slice(-6)}`;
}
