import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { ID_EPOCH, decodeId } from '../../src/ids/index.js';

describe('decodeId', () => {
  // Built by hand from the spec: ms 310_000_000_000 after the epoch, table 7, random 430.
  const ms = 310_000_000_000;
  const big = (BigInt(ms) * 32768n + 7n * 512n + 430n).toString();

  it('decodes the creation time, table id and random part of an id string beyond 2^53', () => {
    expect(BigInt(big) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(decodeId(big)).toEqual({ createdAt: ID_EPOCH + ms, tableId: 7, random: 430 });
  });

  it('accepts the same id as a bigint, and a safe id as a number', () => {
    expect(decodeId(BigInt(big))).toEqual(decodeId(big));
    const small = (1000 * 64 + 11) * 512 + 20;
    expect(decodeId(small)).toEqual({ createdAt: ID_EPOCH + 1000, tableId: 11, random: 20 });
    expect(decodeId(String(small))).toEqual(decodeId(small));
  });

  it('reads digit strings with leading zeros as the same id', () => {
    expect(decodeId(`000${big}`)).toEqual(decodeId(big));
  });

  it.each([
    ['an unsafe number', 2 ** 60, /beyond 2\^53/],
    ['a negative number', -5, /number -5/],
    ['a negative bigint', -5n, /bigint -5/],
    ['a fraction', 12.5, /number 12.5/],
    ['NaN', Number.NaN, /number NaN/],
    ['a string with a sign', '-123', /"-123"/],
    ['a string with a decimal point', '12.0', /"12.0"/],
    ['a string with spaces', ' 123', /" 123"/],
    ['an empty string', '', /""/],
    ['a hex string', '0x1f', /"0x1f"/],
    ['null', null, /null/],
    ['undefined', undefined, /undefined/],
    ['an object', { id: 1 }, /object/],
  ])('rejects %s with a ValidationError on id', (_name, value, detail) => {
    let error: unknown;
    try {
      decodeId(value as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toEqual(['id']);
    expect((error as ValidationError).message).toMatch(/^decodeId: not an id/);
    expect((error as ValidationError).message).toMatch(detail);
  });
});
