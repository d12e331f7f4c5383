import { conversionError } from './conversion-error.js';
import { decimalToScaled, scaledToDecimalString } from './fixed-point.js';
import { toIntlLocale } from './intl-locale.js';

/** Money values are integers equal to the amount multiplied by 1000 (spec convention 2). */
const MONEY_SCALE = 3;

/**
 * A money integer (amount x 1000) as an exact decimal string with three decimals:
 * `moneyToDecimalString(12345) === '12.345'`, `moneyToDecimalString(-5) === '-0.005'`.
 * Throws a ValidationError for NaN, fractions and unsafe integers.
 */
export function moneyToDecimalString(value: number | bigint): string {
  return scaledToDecimalString(value, MONEY_SCALE, 'moneyToDecimalString');
}

/**
 * A decimal amount (string such as `'12.345'`, or a number) as a money integer (x 1000),
 * without float drift: `decimalToMoney('0.1') === 100`, `decimalToMoney(0.1 + 0.2) === 300`.
 * Digits beyond the third decimal round half away from zero. Throws a ValidationError for
 * text that is not a decimal, NaN, infinities, and amounts beyond the safe integer range.
 */
export function decimalToMoney(value: string | number): number {
  return decimalToScaled(value, MONEY_SCALE, 'decimalToMoney');
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats a money integer (x 1000) for display with `Intl.NumberFormat` in `currency`
 * (ISO 4217 code, e.g. `'CZK'`) and `locale` (BCP 47; the runtime's default when omitted).
 * A locale as a platform reports it is read with {@link toIntlLocale}: a POSIX name
 * (`cs_CZ.UTF-8`) or the POSIX locale (`C`, as WebKitGTK reports it under `LANG=C.UTF-8`) formats
 * as the locale it names, a tag nothing can read as the runtime's default: a device's odd locale
 * never stops an app from showing amounts. The exact decimal string is handed to Intl, so large
 * amounts lose no digits; Intl rounds to the currency's usual decimals. Throws a ValidationError
 * for a bad value or currency.
 */
export function formatMoney(value: number | bigint, currency: string, locale?: string): string {
  const decimal = moneyToDecimalString(value) as `${number}`;
  return formatterFor(currency, toIntlLocale(locale)).format(decimal);
}

function formatterFor(currency: string, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch (error) {
      throw conversionError('formatMoney', `invalid currency ${JSON.stringify(currency)}: ${(error as Error).message}`);
    }
    formatters.set(key, formatter);
  }
  return formatter;
}
