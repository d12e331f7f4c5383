import { money, when } from '../shared/format.js';
import { isLive, type Mirror, type StoredRecord } from 'pos-cloud-mirror';
import { ordersToday } from '../shared/sales.js';

/** One register's line of the live overview. */
export interface RegisterLine {
  name: string;
  salesToday: number;
  takingsToday: string;
  lastOrderAt: number | undefined;
  lastOrderTotal: string;
}

const paid = (o: StoredRecord) => (typeof o.total_paid_tax_incl === 'number' ? o.total_paid_tax_incl : 0);

/** Today's sales and the latest order of every register, read from the mirror. */
export async function readOverview(mirror: Mirror, now: number, locale?: string): Promise<RegisterLine[]> {
  const db = mirror.db;
  const [registers, shops] = await Promise.all([db.cash_registers.toArray(), db.shops.toArray()]);
  const shopsById = new Map<unknown, StoredRecord>(shops.map((s) => [s.id, s]));
  const lines = await Promise.all(
    registers.filter(isLive).map(async (register) => {
      const shop = shopsById.get(register.id_shop);
      const currency = typeof shop?.currency === 'string' ? shop.currency : undefined;
      const [latest] = await mirror.query.ordersOfRegister(register.id, { limit: 1 });
      const today = await ordersToday(mirror, register.id, now);
      return {
        name: `${String(shop?.name ?? '')} · ${String(register.name ?? register.id)}`,
        salesToday: today.length,
        takingsToday: money(today.reduce((s, o) => s + paid(o), 0), currency, locale),
        lastOrderAt: typeof latest?.date_created === 'number' ? latest.date_created : undefined,
        lastOrderTotal: latest ? money(paid(latest), typeof latest.currency === 'string' ? latest.currency : currency, locale) : '',
      };
    }),
  );
  return lines.sort((a, b) => a.name.localeCompare(b.name));
}

/** The overview as a text table. */
export function formatOverview(lines: RegisterLine[], now: number, locale?: string): string {
  // The time of a sale of today, the date and time of an earlier one, as the web app shows it.
  const time = (ms: number) => new Date(ms).toLocaleTimeString(locale, { hourCycle: 'h23' });
  const rows = [['Register', 'Sales today', 'Takings today', 'Last sale', 'Last total'], ...lines.map((l) => [l.name, String(l.salesToday), l.takingsToday, when(l.lastOrderAt, now, locale) || '—', l.lastOrderTotal])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const render = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [`Latest orders at ${time(now)}`, render(rows[0]!), ...rows.slice(1).map(render)].join('\n');
}
