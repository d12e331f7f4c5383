import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ValidationError } from '../../src/errors/index.js';
import {
  decimalToMoney,
  formatMoney,
  fromDate,
  moneyToDecimalString,
  percentToReductionPercent,
  reductionPercentToPercent,
  toDate,
} from '../../src/schema/index.js';

const safeInt = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

describe('money (integers x 1000)', () => {
  it('writes exact decimal strings with three decimals', () => {
    expect(moneyToDecimalString(12345)).toBe('12.345');
    expect(moneyToDecimalString(0)).toBe('0.000');
    expect(moneyToDecimalString(5)).toBe('0.005');
    expect(moneyToDecimalString(-5)).toBe('-0.005');
    expect(moneyToDecimalString(-12345)).toBe('-12.345');
    expect(moneyToDecimalString(1000)).toBe('1.000');
    expect(moneyToDecimalString(Number.MAX_SAFE_INTEGER)).toBe('9007199254740.991');
    expect(moneyToDecimalString(2n ** 70n)).toBe('1180591620717411303.424');
  });

  it('reads decimals without float drift', () => {
    expect(decimalToMoney('0.1')).toBe(100);
    expect(decimalToMoney(0.1 + 0.2)).toBe(300);
    expect(decimalToMoney('12.345')).toBe(12345);
    expect(decimalToMoney(12.345)).toBe(12345);
    expect(decimalToMoney(1.005)).toBe(1005); // 1.005 * 1000 is 1004.9999999999999 in floats
    expect(decimalToMoney(4.35)).toBe(4350); // 4.35 * 1000 is 4349.999999999999
    expect(decimalToMoney('-0.1')).toBe(-100);
    expect(decimalToMoney('.5')).toBe(500);
    expect(decimalToMoney('+7')).toBe(7000);
    expect(decimalToMoney('1e-3')).toBe(1);
    expect(decimalToMoney(1e-7)).toBe(0);
    expect(decimalToMoney('2.5E2')).toBe(250000);
    expect(decimalToMoney('-0')).toBe(0);
    expect(Object.is(decimalToMoney('-0.0001'), 0)).toBe(true);
  });

  it('rounds beyond the third decimal half away from zero', () => {
    expect(decimalToMoney('0.0005')).toBe(1);
    expect(decimalToMoney('0.00049999')).toBe(0);
    expect(decimalToMoney('-0.0005')).toBe(-1);
    expect(decimalToMoney('1.23449')).toBe(1234);
    expect(decimalToMoney('1.2345')).toBe(1235);
    expect(decimalToMoney('9.9995')).toBe(10000);
  });

  it('round-trips every safe money integer, negatives included', () => {
    fc.assert(fc.property(safeInt, (value) => decimalToMoney(moneyToDecimalString(value)) === value), { numRuns: 2000 });
  });

  it('agrees with exact rational arithmetic on random decimals', () => {
    const decimal = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 9 }));
    fc.assert(
      fc.property(decimal, ([negative, digits, scale]) => {
        const text = digits.toString().padStart(scale + 1, '0');
        const literal = `${negative ? '-' : ''}${scale ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text}`;
        // exact: round(digits * 1000 / 10^scale) half away from zero
        const numerator = digits * 1000n;
        const denominator = 10n ** BigInt(scale);
        let rounded = numerator / denominator;
        if ((numerator % denominator) * 2n >= denominator) rounded += 1n;
        if (rounded > BigInt(Number.MAX_SAFE_INTEGER)) return true;
        const expected = Number(negative ? -rounded : rounded) + 0;
        return decimalToMoney(literal) === expected;
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects bad input with a ValidationError that says what is wrong', () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => moneyToDecimalString(Number.NaN), /moneyToDecimalString: expected a safe integer, got number NaN/],
      [() => moneyToDecimalString(1.5), /safe integer/],
      [() => moneyToDecimalString(2 ** 60), /safe integer/],
      [() => decimalToMoney(Number.NaN), /decimalToMoney: expected a finite number/],
      [() => decimalToMoney(Number.POSITIVE_INFINITY), /finite number/],
      [() => decimalToMoney('12,5'), /expected a decimal number, got the string "12,5"/],
      [() => decimalToMoney(''), /expected a decimal number/],
      [() => decimalToMoney('.'), /expected a decimal number/],
      [() => decimalToMoney(' 1'), /expected a decimal number/],
      [() => decimalToMoney('1e400'), /beyond the safe integer range/],
      [() => decimalToMoney('9007199254740.992'), /beyond the safe integer range/],
      [() => decimalToMoney(null as unknown as string), /expected a decimal string or number, got null/],
    ];
    for (const [run, message] of cases) {
      expect(run).toThrow(ValidationError);
      expect(run).toThrow(message);
    }
  });

  it('formats with Intl in the currency and locale given, without losing digits', () => {
    const nbsp = /[\u00a0\u202f]/g;
    expect(formatMoney(12345, 'CZK', 'cs-CZ').replace(nbsp, ' ')).toBe('12,35 Kč');
    expect(formatMoney(-1500, 'EUR', 'en-US')).toBe('-€1.50');
    expect(formatMoney(1234, 'BHD', 'en-US').replace(nbsp, ' ')).toBe('BHD 1.234');
    expect(formatMoney(2n ** 70n, 'USD', 'en-US')).toBe('$1,180,591,620,717,411,303.42');
    expect(() => formatMoney(1, 'not a currency')).toThrow(ValidationError);
    expect(() => formatMoney(1, 'EUR', 'en-US')).not.toThrow();
    expect(() => formatMoney(1, 'Kč ', 'en-US')).toThrow(/formatMoney: invalid currency "Kč "/);
  });
});

describe('reduction_percent (percent x 1000)', () => {
  it('converts to and from percentages', () => {
    expect(reductionPercentToPercent(500)).toBe(0.5);
    expect(reductionPercentToPercent(12500)).toBe(12.5);
    expect(reductionPercentToPercent(100000)).toBe(100);
    expect(reductionPercentToPercent(1)).toBe(0.001);
    expect(percentToReductionPercent(0.5)).toBe(500);
    expect(percentToReductionPercent('12.5')).toBe(12500);
    expect(percentToReductionPercent(0.1 + 0.2)).toBe(300);
  });

  it('round-trips every value of up to 15 digits (a double holds no more as a percentage)', () => {
    const upTo15Digits = fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 });
    fc.assert(
      fc.property(upTo15Digits, (value) => percentToReductionPercent(reductionPercentToPercent(value)) === value),
      { numRuns: 2000 },
    );
  });

  it('rejects bad input', () => {
    expect(() => reductionPercentToPercent(Number.NaN)).toThrow(/reductionPercentToPercent: expected a safe integer/);
    expect(() => reductionPercentToPercent(0.5)).toThrow(ValidationError);
    expect(() => percentToReductionPercent('5%')).toThrow(/percentToReductionPercent: expected a decimal number/);
  });
});

describe('times (integer Unix ms)', () => {
  it('converts to and from Date', () => {
    expect(toDate(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(toDate(1_440_000_000_000).toISOString()).toBe('2015-08-19T16:00:00.000Z');
    expect(fromDate(new Date('2024-02-29T12:34:56.789Z'))).toBe(1_709_210_096_789);
    expect(toDate(-1).getTime()).toBe(-1);
  });

  it('round-trips every time a Date can hold', () => {
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => fromDate(toDate(ms)) === ms));
  });

  it('rejects NaN, fractions, unsafe integers, out-of-range times and invalid Dates', () => {
    expect(() => toDate(Number.NaN)).toThrow(/toDate: expected a time in integer ms, got number NaN/);
    expect(() => toDate(1.5)).toThrow(ValidationError);
    expect(() => toDate(2 ** 60)).toThrow(ValidationError);
    expect(() => toDate(8.64e15 + 1)).toThrow(/outside the range of a Date/);
    expect(() => toDate('1' as unknown as number)).toThrow(/got the string "1"/);
    expect(() => fromDate(new Date(Number.NaN))).toThrow(/fromDate: the Date is invalid/);
    expect(() => fromDate(5 as unknown as Date)).toThrow(/expected a Date, got number 5/);
  });
});
