import { formatMoney, toIntlLocale } from 'pos-cloud-mirror';

/*
 * Every format here reads its `locale` through `toIntlLocale`: the tag a device reports may be one
 * Intl refuses (WebKitGTK under LANG=C.UTF-8 reports "C"), and a format that throws would leave a
 * screen blank.
 */

/** Currency shown when neither a record nor its shop names one. */
const FALLBACK_CURRENCY = 'CZK';

/**
 * A money value of the service (an integer, the amount x 1000: spec convention 2) formatted
 * with Intl for `locale` (`formatMoney` reads it through `toIntlLocale` itself). Empty text for a missing value; `currency` falls back to
 * {@link FALLBACK_CURRENCY} when null.
 */
export function money(value: unknown, currency: string | null | undefined, locale?: string): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return '';
  return formatMoney(value, currency && currency.length === 3 ? currency : FALLBACK_CURRENCY, locale);
}

const decimalFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A plain decimal amount (the price-matrix fields `unit_price_base_tax_*`, which the spec keeps
 * as decimals, not x 1000) formatted as money.
 */
function decimalMoney(value: unknown, currency: string | null | undefined, locale?: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  const code = currency && currency.length === 3 ? currency : FALLBACK_CURRENCY;
  const key = `${locale ?? ''}|${code}`;
  let formatter = decimalFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(toIntlLocale(locale), { style: 'currency', currency: code });
    decimalFormatters.set(key, formatter);
  }
  return formatter.format(value);
}

/** The price a shop shows for a product: tax included when the row has it, else the regular price. */
export function priceLabel(row: Record<string, unknown> | undefined, locale?: string): { amount: string; note: string } {
  if (!row) return { amount: '', note: 'no price' };
  const currency = typeof row.currency === 'string' ? row.currency : null;
  if (typeof row.unit_price_base_tax_incl === 'number') {
    return { amount: decimalMoney(row.unit_price_base_tax_incl, currency, locale), note: 'incl. VAT' };
  }
  if (typeof row.unit_price_regular_tax_excl === 'number') {
    return { amount: money(row.unit_price_regular_tax_excl, currency, locale), note: 'excl. VAT' };
  }
  return { amount: '', note: 'no price' };
}

/** Time of day of a service time (ms): `14:05:09`. */
function timeOfDay(ms: unknown, locale?: string): string {
  if (typeof ms !== 'number') return '';
  return new Intl.DateTimeFormat(toIntlLocale(locale), { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(ms);
}

/** Date and time of a service time (ms), short: `22 Nov, 14:05`. */
export function dateTime(ms: unknown, locale?: string): string {
  if (typeof ms !== 'number') return '';
  return new Intl.DateTimeFormat(toIntlLocale(locale), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(ms);
}

/** Time of the day for today's times, date and time for older ones, the date alone before this year. */
export function when(ms: unknown, now: number, locale?: string): string {
  if (typeof ms !== 'number') return '';
  const date = new Date(ms);
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return timeOfDay(ms, locale);
  if (date.getFullYear() === today.getFullYear()) return dateTime(ms, locale);
  return new Intl.DateTimeFormat(toIntlLocale(locale), { day: 'numeric', month: 'short', year: 'numeric' }).format(ms);
}

/** How long ago, in words: `12 seconds ago`, `3 minutes ago`, `never`. */
export function ago(ms: number | undefined, now: number, locale?: string): string {
  if (ms === undefined) return 'never';
  const seconds = Math.round((ms - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(toIntlLocale(locale), { numeric: 'auto' });
  if (Math.abs(seconds) < 60) return rtf.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return rtf.format(minutes, 'minute');
  return rtf.format(Math.round(minutes / 60), 'hour');
}

/** A count or quantity with the locale's digit grouping: `1,234`, `2.5`. */
export function quantity(value: number, locale?: string): string {
  return new Intl.NumberFormat(toIntlLocale(locale), { maximumFractionDigits: 3 }).format(value);
}

/** Payment forms the spec names by `id_payment` (Endpoints, rule 7). */
const PAYMENTS: Record<number, string> = { 221: 'Cash', 222: 'Card', 238: 'Terminal' };

/** A label for an order's `id_payment`. */
export function paymentLabel(idPayment: unknown): string {
  if (typeof idPayment !== 'number' || idPayment === 0) return '—';
  return PAYMENTS[idPayment] ?? `Code ${idPayment}`;
}

/** A person's or company's display name from a customer record. */
export function customerName(c: Record<string, unknown>): string {
  const person = [c.firstname, c.lastname].filter((p) => typeof p === 'string' && p.trim() !== '').join(' ');
  if (person) return person;
  if (typeof c.company === 'string' && c.company.trim() !== '') return c.company;
  return typeof c.email === 'string' && c.email ? c.email : `Customer ${String(c.id)}`;
}
