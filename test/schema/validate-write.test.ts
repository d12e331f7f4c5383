import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { ValidationError } from '../../src/errors/index.js';
import { validateWrite } from '../../src/schema/index.js';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('validateWrite', () => {
  it('throws a ValidationError whose message names every bad field, in the spec words', () => {
    const error = thrown(() => validateWrite('customers', { company: null, email: 'nope', country_code: 'CZE' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).not.toBeInstanceOf(ZodError);
    expect((error as ValidationError).message).toBe(
      'customers record: email: invalid e-mail; country_code: must be exactly 2 characters',
    );
    expect((error as ValidationError).issues).toEqual([
      { path: ['email'], message: 'invalid e-mail' },
      { path: ['country_code'], message: 'must be exactly 2 characters' },
    ]);
  });

  it('lists more than ten bad fields in the message, not only the first ones', () => {
    const error = thrown(() => validateWrite('order_details', {})) as ValidationError;
    expect(error.issues).toHaveLength(9);
    const bad = Object.fromEntries(
      ['customer_type', 'color', 'bitmask', 'visible', 'country_code', 'price_group', 'price_discount', 'date_updated',
        'date_birthday', 'date_expires', 'email', 'firstname'].map((f) => [f, f === 'email' ? 'x' : {}]),
    );
    const many = thrown(() => validateWrite('customers', { company: 1, ...bad })) as ValidationError;
    expect(many.issues).toHaveLength(13);
    for (const field of ['company', ...Object.keys(bad)]) expect(many.message).toContain(`${field}: `);
    expect(many.message).not.toMatch(/and \d+ more/);
  });

  it('stamps current-time defaults with the injected now, and validates it', () => {
    const out = validateWrite('customers', { company: 'A' }, { now: 42 });
    expect(out.date_created).toBe(42);
    expect(out.date_updated).toBe(42);
    const error = thrown(() => validateWrite('customers', { company: 'A' }, { now: Number.NaN })) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues[0]?.path).toEqual(['now']);
  });

  it('does not leak an injected now into later validations', () => {
    validateWrite('warehouses', { name: 'W' }, { now: 5 });
    expect(validateWrite('warehouses', { name: 'W' }).date_created).not.toBe(5);
    thrown(() => validateWrite('warehouses', {}, { now: 6 }));
    expect(validateWrite('warehouses', { name: 'W' }).date_created).not.toBe(6);
  });

  it('rejects an unknown collection with a ValidationError', () => {
    const error = thrown(() => validateWrite('nope' as 'customers', {}));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/unknown collection "nope"/);
  });

  it('does not modify the input record', () => {
    const input = { name: 'W', id: 7, pgx: 'p', __x: 1 };
    validateWrite('warehouses', input);
    expect(input).toEqual({ name: 'W', id: 7, pgx: 'p', __x: 1 });
  });

  it('never puts a value into the message beyond a short excerpt', () => {
    const error = thrown(() => validateWrite('warehouses', { name: 'x'.repeat(5000), visible: 'y'.repeat(5000) })) as ValidationError;
    expect(error.message.length).toBeLessThan(200);
  });

  it('refuses unknown fields that JSON cannot carry as they are, naming each', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    const cases: [string, unknown, RegExp][] = [
      ['nan', Number.NaN, /nan: must be a finite number \(JSON has no NaN\)/],
      ['inf', [1, Number.POSITIVE_INFINITY], /inf\.1: must be a finite number/],
      ['loop', loop, /loop\.self: must be a JSON value, got a circular reference/],
      ['when', new Date(0), /when: must be a plain object, array or JSON value, got a Date/],
      ['tags', new Map([[1, 2]]), /tags: .* got a Map/],
      ['holes', [1, undefined], /holes\.1: must be a JSON value, got undefined/],
      ['call', () => 1, /call: must be a JSON value, got function/],
      ['deep', JSON.parse('['.repeat(300) + ']'.repeat(300)), /deep(\.0)+: must be nested at most 256 levels deep/],
    ];
    for (const [field, value, message] of cases) {
      const error = thrown(() => validateWrite('warehouses', { name: 'W', [field]: value })) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toMatch(message);
      expect(error.issues[0]?.path[0]).toBe(field);
    }
  });

  it('accepts unknown fields that are JSON values, bigints included', () => {
    const extra = { note: { tags: ['a', null, true, 1.5], nested: { n: -0 } }, big: 12345678901234567890n, gone: undefined, empty: Object.create(null) };
    expect(validateWrite('warehouses', { name: 'W', ...extra })).toMatchObject({ name: 'W', note: extra.note, big: extra.big });
  });
});
