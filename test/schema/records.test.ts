import { describe, expect, it } from 'vitest';
import { isValidationError, type ValidationError } from '../../src/errors/index.js';
import { parseRecord, validateWrite, type SchemaName } from '../../src/schema/index.js';
import { SPEC_RESOURCES, type SpecResource } from './spec-tables.js';
import {
  NOW_MS,
  badWriteValues,
  entries,
  expectedMinimalWrite,
  minimalInput,
  writeOnlyViolations,
  looseReadValues,
  unreadableValues,
  wrongReadValue,
} from './spec-samples.js';

const BEYOND_2_53 = '1152921504606846976'; // 2^60

function write(resource: SpecResource, record: unknown): Record<string, unknown> {
  return validateWrite(resource.name as SchemaName, record, { now: NOW_MS }) as Record<string, unknown>;
}

function writeError(resource: SpecResource, record: unknown): ValidationError {
  try {
    write(resource, record);
  } catch (error) {
    if (isValidationError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${resource.name} write to fail for ${JSON.stringify(record)}`);
}

function read(resource: SpecResource, record: unknown) {
  return parseRecord(resource.name as SchemaName, record);
}

function readOk(resource: SpecResource, record: unknown): Record<string, unknown> {
  const result = read(resource, record);
  if (!result.ok) throw new Error(`read rejected: ${JSON.stringify(result.issues)}`);
  return result.record as Record<string, unknown>;
}

/**
 * `it.each` over the cases a resource's table yields; registers nothing when the table has none
 * (shifts and park_locations show no fields), instead of reporting a skipped test.
 */
function itEach<T extends object | string>(cases: readonly T[], title: string, fn: (c: T) => void): void {
  if (cases.length > 0) it.each(cases as T[])(title, (c) => fn(c as T));
}

/** `it`, registered only when the resource's table calls for it (no skipped tests). */
function itIf(condition: boolean, title: string, fn: () => void): void {
  if (condition) it(title, fn);
}

const withRules = (r: SpecResource) =>
  entries(r).flatMap(([name, field]) => badWriteValues(field).map(([value, message]) => ({ name, value, message })));
const idFieldsOf = (r: SpecResource) => ['id', 'id_c', ...entries(r).filter(([, f]) => f.type === 'id').map(([n]) => n)];

describe.each(SPEC_RESOURCES.map((r) => [r.name, r] as const))('%s write face', (_name, resource) => {
  it('fills every documented default of the spec and nothing else', () => {
    expect(write(resource, minimalInput(resource))).toStrictEqual(expectedMinimalWrite(resource));
  });

  const required = entries(resource).filter(([, f]) => f.required);
  itEach(required.map(([n]) => n), 'rejects a record without %s, naming it', (name) => {
    const record = minimalInput(resource);
    delete record[name];
    const error = writeError(resource, record);
    expect(error.issues).toEqual([{ path: [name], message: 'required' }]);
    expect(error.message).toBe(`${resource.name} record: ${name}: required`);
  });

  const nullableKeys = entries(resource).filter(([, f]) => f.required === 'nullable' || f.nullable);
  itEach(nullableKeys.map(([n]) => n), 'accepts null for %s', (name) => {
    expect(write(resource, { ...minimalInput(resource), [name]: null })[name]).toBeNull();
  });

  const rules = withRules(resource);
  itEach(rules, 'rejects $name = $value', ({ name, value, message }) => {
    const error = writeError(resource, { ...minimalInput(resource), [name]: value });
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.path).toEqual([name]);
    expect(error.issues[0]?.message).toMatch(message);
    expect(error.message).toContain(`${resource.name} record: ${name}: `);
  });

  itIf(rules.length > 0, 'lists every bad field at once', () => {
    const record = minimalInput(resource);
    const firstBad = new Map(rules.map((r) => [r.name, r.value] as const).reverse());
    for (const [name, value] of firstBad) record[name] = value;
    const error = writeError(resource, record);
    expect(new Set(error.issues.map((i) => i.path[0]))).toEqual(new Set(firstBad.keys()));
    for (const name of firstBad.keys()) expect(error.message).toContain(`${name}: `);
  });

  it('accepts values the spec allows at the edges', () => {
    const record = minimalInput(resource);
    for (const [name, field] of entries(resource)) {
      if (field.min0) record[name] = 0;
      else if (field.type === 'int' || field.type === 'num') record[name] = -5; // no ">= 0" rule
      if (field.type === 'num') record[name] = -2.25; // fractions allowed
      if (field.type === 'email') record[name] = null;
      if (!field.required && !('default' in field)) record[name] = null; // optional, unset
    }
    const out = write(resource, record);
    for (const [name, field] of entries(resource)) {
      if (field.type !== 'id' && name in record) expect(out[name], name).toEqual(record[name]);
    }
  });

  it.each(idFieldsOf(resource))('normalizes %s from number, bigint, padded and beyond-2^53 strings', (name) => {
    const cases: Array<[unknown, string]> = [
      [42, '42'],
      [42n, '42'],
      ['000042', '42'],
      [BEYOND_2_53, BEYOND_2_53],
      [2n ** 60n, BEYOND_2_53],
      [0, '0'],
    ];
    for (const [input, expected] of cases) {
      expect(write(resource, { ...minimalInput(resource), [name]: input })[name]).toBe(expected);
    }
  });

  it('keeps unknown fields, and normalizes unknown id_* fields', () => {
    const extra = { loyalty_note: 'kept', nested_thing: { a: [1, { b: null }] }, id_partner: '0077', flag_x: false };
    const out = write(resource, { ...minimalInput(resource), ...extra });
    expect(out).toMatchObject({ loyalty_note: 'kept', nested_thing: { a: [1, { b: null }] }, id_partner: '77', flag_x: false });
  });

  it('drops pgx, _u_dyn and __ hydrations, which are never part of a write record', () => {
    const out = write(resource, { ...minimalInput(resource), pgx: 'c|1', _u_dyn: 5, __order_details: [], __x: {} });
    for (const key of ['pgx', '_u_dyn', '__order_details', '__x']) expect(out).not.toHaveProperty(key);
  });

  it('checks the common fields: id, _t, _d, _v', () => {
    const base = minimalInput(resource);
    expect(write(resource, base)).not.toHaveProperty('id'); // missing id: create
    expect(write(resource, { ...base, id: 0 })['id']).toBe('0');
    expect(write(resource, { ...base, _t: resource.t })['_t']).toBe(resource.t);
    expect(writeError(resource, { ...base, _t: 'something_else' }).issues).toEqual([
      { path: ['_t'], message: `must be "${resource.t}", got the string "something_else"` },
    ]);
    expect(write(resource, { ...base, _d: 1 })['_d']).toBe(1);
    expect(writeError(resource, { ...base, _d: -1 }).issues[0]?.path).toEqual(['_d']);
    expect(writeError(resource, { ...base, _d: 0.5 }).issues[0]?.path).toEqual(['_d']);
    expect(write(resource, { ...base, _v: 1_700_000_000_000 })['_v']).toBe(1_700_000_000_000);
    expect(writeError(resource, { ...base, _v: -1 }).issues[0]?.path).toEqual(['_v']);
    expect(writeError(resource, { ...base, _v: '5' }).issues[0]?.path).toEqual(['_v']);
    expect(writeError(resource, { ...base, id: 'new' }).issues[0]?.path).toEqual(['id']);
  });

  itIf(resource.dateCreated, 'stamps date_created with the injected now, and keeps a given one', () => {
    const base = minimalInput(resource);
    expect(write(resource, base)['date_created']).toBe(NOW_MS);
    expect(write(resource, { ...base, date_created: 123 })['date_created']).toBe(123);
    expect(writeError(resource, { ...base, date_created: 1.5 }).issues[0]?.path).toEqual(['date_created']);
    const before = Date.now();
    const stamped = validateWrite(resource.name as SchemaName, base) as Record<string, unknown>;
    expect(stamped['date_created']).toBeGreaterThanOrEqual(before);
    expect(stamped['date_created']).toBeLessThanOrEqual(Date.now());
  });

  itIf(!resource.dateCreated, 'adds no date_created where the spec shape has none', () => {
    expect(write(resource, minimalInput(resource))).not.toHaveProperty('date_created');
  });

  it('rejects what is not an object at all', () => {
    for (const bad of [null, 'record', 5, [minimalInput(resource)]]) {
      expect(writeError(resource, bad).issues[0]?.path).toEqual([]);
    }
  });
});

describe.each(SPEC_RESOURCES.map((r) => [r.name, r] as const))('%s read face', (_name, resource) => {
  it('accepts a record with only id and _v, filling _d and _t', () => {
    expect(readOk(resource, { id: 5, _v: 1 })).toStrictEqual({ id: '5', _v: 1, _d: 0, _t: resource.t });
  });

  it('rejects a missing or invalid id', () => {
    for (const bad of [undefined, 'abc', -1, 1.5, null, 2 ** 53 + 2]) {
      const result = read(resource, { id: bad, _v: 1 });
      expect(result.ok, String(bad)).toBe(false);
      if (!result.ok) expect(result.issues[0]?.path).toEqual(['id']);
    }
  });

  it('rejects a _v that is not a non-negative integer', () => {
    for (const bad of [undefined, -1, 1.5, '-1', '5.5', 'five', null]) {
      const result = read(resource, { id: 5, _v: bad });
      expect(result.ok, String(bad)).toBe(false);
      if (!result.ok) expect(result.issues[0]?.path).toEqual(['_v']);
    }
  });

  it('accepts null for every field but id, _v and required references', () => {
    const record: Record<string, unknown> = { id: 5, _v: 1, id_c: null, date_created: null, _d: null };
    for (const [name, field] of entries(resource)) {
      if (!(field.type === 'id' && field.required)) record[name] = null;
    }
    const out = readOk(resource, record);
    for (const [name, field] of entries(resource)) {
      if (!(field.type === 'id' && field.required)) expect(out[name], name).toBeNull();
    }
    expect(out['_d']).toBe(0);
  });

  const requiredRefs = entries(resource).filter(([, f]) => f.type === 'id' && f.required);
  itEach(requiredRefs.map(([n]) => n), 'reads the required reference %s when null or absent, but not when it is no id', (name) => {
    expect(readOk(resource, { id: 5, _v: 1, [name]: null })[name]).toBeNull();
    expect(read(resource, { id: 5, _v: 1 }).ok).toBe(true);
    const result = read(resource, { id: 5, _v: 1, [name]: 'abc' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.path).toEqual([name]);
  });

  const described = entries(resource);
  itEach(described.map(([name, field]) => ({ name, field })), 'rejects a clearly wrong type in $name', ({ name, field }) => {
    const result = read(resource, { id: 5, _v: 1, [name]: wrongReadValue(field) });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.path)).toEqual([[name]]);
  });

  it('reads a _v written as a numeric string as its number', () => {
    expect(readOk(resource, { id: 5, _v: '1700000000123' })['_v']).toBe(1_700_000_000_123);
  });

  it('reads every lossless representation a loosely typed backend writes as the documented type', () => {
    for (const [name, field] of entries(resource)) {
      for (const [value, expected] of looseReadValues(field)) {
        expect(readOk(resource, { id: 5, _v: 1, [name]: value })[name], `${name}=${JSON.stringify(value)}`).toEqual(expected);
      }
    }
  });

  it('refuses what cannot be read losslessly, naming the field', () => {
    for (const [name, field] of entries(resource)) {
      for (const value of unreadableValues(field)) {
        const result = read(resource, { id: 5, _v: 1, [name]: value });
        expect(result.ok, `${name}=${JSON.stringify(value)}`).toBe(false);
        if (!result.ok) expect(result.issues.some((i) => i.path[0] === name), `${name}=${JSON.stringify(value)}`).toBe(true);
      }
    }
  });

  it('keeps values that only break write rules (formats, ranges, enums)', () => {
    for (const [name, field] of entries(resource)) {
      for (const value of writeOnlyViolations(field)) {
        expect(readOk(resource, { id: 5, _v: 1, [name]: value })[name], `${name}=${String(value)}`).toEqual(value);
      }
    }
  });

  it('never rejects a record for fields the spec does not describe, and keeps them', () => {
    const extra = { mystery: { deep: [1, null, 'x'] }, flag: 'yes', amount_x: '12', list: [], pgx: 'c|5', _u_dyn: 9 };
    expect(readOk(resource, { id: 5, _v: 1, ...extra })).toMatchObject(extra);
  });

  it('normalizes every id field, described or not, including values beyond 2^53', () => {
    const record: Record<string, unknown> = { id: BEYOND_2_53, _v: 1, id_c: '0042', id_undocumented: 17n };
    for (const name of idFieldsOf(resource).slice(2)) record[name] = `000${BEYOND_2_53}`;
    const out = readOk(resource, record);
    expect(out['id']).toBe(BEYOND_2_53);
    expect(out['id_c']).toBe('42');
    expect(out['id_undocumented']).toBe('17');
    for (const name of idFieldsOf(resource).slice(2)) expect(out[name]).toBe(BEYOND_2_53);
  });

  it(resource.tStated ? 'rejects a _t naming another table' : 'keeps a _t it cannot check', () => {
    const result = read(resource, { id: 5, _v: 1, _t: 'other_table' });
    expect(result.ok).toBe(!resource.tStated);
  });

  it('survives a read, an edit and a write with unknown fields intact', () => {
    const served = { ...minimalInput(resource), id: 99, _v: 5, pgx: 'p', unknown_kept: { a: 1 } };
    const stored = readOk(resource, served);
    const saved = write(resource, { ...stored, edited_locally: true });
    expect(saved).toMatchObject({ id: '99', _v: 5, unknown_kept: { a: 1 }, edited_locally: true });
    expect(saved).not.toHaveProperty('pgx');
  });
});
