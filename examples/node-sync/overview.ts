import { Dexie } from 'dexie';
import { formatMoney, isLive, type Mirror, type StoredRecord } from '../shared/library.js';

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
  const startOfDay = new Date(now);
  startOfDay.setHours(0, 0, 0, 0);
  const [registers, shops] = await Promise.all([db.cash_registers.toArray(), db.shops.toArray()]);
  const lines = await Promise.all(
    registers.filter(isLive).map(async (register) => {
      const currency = String(shops.find((s) => s.id === register.id_shop)?.currency ?? 'CZK');
      const [latest] = await mirror.query.ordersOfRegister(register.id, { limit: 1 });
      const today = await db.orders
        .where('[id_cash_register+date_created]')
        .between([register.id, startOfDay.getTime()], [register.id, Dexie.maxKey])
        .filter((o) => isLive(o) && !o.date_canceled)
        .toArray();
      return {
        name: `${String(shops.find((s) => s.id === register.id_shop)?.name ?? '')} · ${String(register.name ?? register.id)}`,
        salesToday: today.length,
        takingsToday: formatMoney(today.reduce((s, o) => s + paid(o), 0), currency, locale),
        lastOrderAt: typeof latest?.date_created === 'number' ? latest.date_created : undefined,
        lastOrderTotal: latest ? formatMoney(paid(latest), typeof latest.currency === 'string' ? latest.currency : currency, locale) : '',
      };
    }),
  );
  return lines.sort((a, b) => a.name.localeCompare(b.name));
}

/** The overview as a text table. */
export function formatOverview(lines: RegisterLine[], now: number, locale?: string): string {
  const time = (ms: number | undefined) => (ms === undefined ? '—' : new Date(ms).toLocaleTimeString(locale, { hourCycle: 'h23' }));
  const rows = [['Register', 'Sales today', 'Takings today', 'Last sale', 'Last total'], ...lines.map((l) => [l.name, String(l.salesToday), l.takingsToday, time(l.lastOrderAt), l.lastOrderTotal])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const render = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [`Latest orders at ${time(now)}`, render(rows[0]!), ...rows.slice(1).map(render)].join('\n');
}
