import { describe, expect, it } from 'vitest';
import { formatMoney, toIntlLocale } from '../../src/index.js';

describe('toIntlLocale', () => {
  it('keeps a language tag Intl takes, in its canonical form', () => {
    expect(toIntlLocale('en-US')).toBe('en-US');
    expect(toIntlLocale('cs-cz')).toBe('cs-CZ');
    expect(toIntlLocale('de')).toBe('de');
  });

  it('reads a POSIX locale name as the language and region it names', () => {
    expect(toIntlLocale('cs_CZ.UTF-8')).toBe('cs-CZ');
    expect(toIntlLocale('de_AT@euro')).toBe('de-AT');
    expect(toIntlLocale('en_GB')).toBe('en-GB');
  });

  it('reads the POSIX "C" locale, which WebKitGTK reports as navigator.language under LANG=C.UTF-8, as en-US', () => {
    // Intl refuses "C" (RangeError: invalid language tag): formatting with it throws.
    expect(() => new Intl.NumberFormat('C')).toThrow(RangeError);
    expect(toIntlLocale('C')).toBe('en-US');
    expect(toIntlLocale('C.UTF-8')).toBe('en-US');
    expect(toIntlLocale('POSIX')).toBe('en-US');
  });

  it('leaves a tag it cannot read to the runtime’s default locale (undefined), as no tag at all', () => {
    expect(toIntlLocale('not a tag!')).toBeUndefined();
    expect(toIntlLocale('')).toBeUndefined();
    expect(toIntlLocale(undefined)).toBeUndefined();
  });

  it('gives Intl a locale it takes, whatever the platform reported', () => {
    for (const tag of ['C', 'C.UTF-8', 'POSIX', 'cs_CZ.UTF-8', 'x', '123', 'en-US', 'zz-ZZ', '*', 'i-klingon']) {
      expect(() => new Intl.NumberFormat(toIntlLocale(tag)).format(1), tag).not.toThrow();
    }
  });
});

describe('formatMoney with a locale Intl refuses', () => {
  it('formats in the locale the tag stands for instead of throwing', () => {
    const nbsp = /[\u00a0\u202f]/g;
    expect(formatMoney(1_234_500, 'CZK', 'C')).toBe(formatMoney(1_234_500, 'CZK', 'en-US'));
    expect(formatMoney(12345, 'CZK', 'cs_CZ.UTF-8').replace(nbsp, ' ')).toBe('12,35 Kč');
    expect(formatMoney(1500, 'EUR', 'xx_invalid-locale!')).toBe(formatMoney(1500, 'EUR'));
  });
});
