import { NOW, type SpecField, type SpecResource } from './spec-tables.js';

/** The time injected as "now" into write validation. */
export const NOW_MS = 1_700_000_000_123;

/** A valid value of a field, as an app would write it (ids as plain numbers). */
export function sampleValue(field: SpecField, index: number): unknown {
  switch (field.type) {
    case 'id':
      return 1_000 + index;
    case 'int':
      return 7 + index;
    case 'num':
      return 2.5 + index;
    case 'time':
      return 1_690_000_000_000 + index;
    case 'str':
      return field.length === undefined ? `text ${index}` : 'ABCDEFGH'.slice(0, field.length);
    case 'email':
      return `someone${index}@example.com`;
    case 'bool':
      return index % 2 === 0;
    case 'enum':
      return field.values?.[field.values.length - 1];
  }
}

/** The canonical form a sample value takes once validated (ids become digit strings). */
export function canonical(field: SpecField, value: unknown): unknown {
  return field.type === 'id' && typeof value === 'number' ? String(value) : value;
}

/** Entries of the table with their position, for deterministic sample values. */
export function entries(resource: SpecResource): Array<[string, SpecField, number]> {
  return Object.entries(resource.fields).map(([name, field], i) => [name, field, i]);
}

/** A record holding only the required fields, with valid values. */
export function minimalInput(resource: SpecResource): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, field, i] of entries(resource)) if (field.required) record[name] = sampleValue(field, i);
  return record;
}

/** What the write face must make of {@link minimalInput}: every documented default added, nothing else. */
export function expectedMinimalWrite(resource: SpecResource): Record<string, unknown> {
  const record: Record<string, unknown> = { _d: 0, _t: resource.t };
  if (resource.dateCreated) record['date_created'] = NOW_MS;
  for (const [name, field, i] of entries(resource)) {
    if (field.required) record[name] = canonical(field, sampleValue(field, i));
    else if ('default' in field) record[name] = field.default === NOW ? NOW_MS : field.default;
  }
  return record;
}

/** Values that break the field's type rule on write, each with the message it must produce. */
export function badWriteValues(field: SpecField): Array<[unknown, RegExp]> {
  const bad: Array<[unknown, RegExp]> = [];
  switch (field.type) {
    case 'id':
      bad.push(['abc', /must be an id/], [-1, /must be an id/], [1.5, /must be an id/], [true, /must be an id/]);
      break;
    case 'int':
    case 'time':
      bad.push([1.5, /expected an integer, got number 1.5/], ['7', /expected (an integer|a number)/]);
      break;
    case 'num':
      bad.push(['2.5', /expected a number, got the string "2.5"/], [Number.NaN, /expected a number/]);
      break;
    case 'str':
      bad.push([5, /expected a string, got number 5/], [{}, /expected a string, got an object/]);
      break;
    case 'email':
      bad.push(['not-an-email', /invalid e-mail/], ['a@b', /invalid e-mail/]);
      break;
    case 'bool':
      bad.push(['true', /expected true or false/], [1, /expected true or false/]);
      break;
    case 'enum':
      bad.push(['D', /must be one of A, B, C/], ['a', /must be one of A, B, C/]);
      break;
  }
  if (field.min0) bad.push([-1, /must be >= 0/]);
  if (field.length !== undefined) {
    const exactly = new RegExp(`must be exactly ${field.length} characters`);
    bad.push(['X'.repeat(field.length - 1), exactly], ['X'.repeat(field.length + 1), exactly]);
  }
  const mayBeNull = field.type === 'email' || field.required === 'nullable' || field.nullable ||
    (!field.required && !('default' in field));
  if (!mayBeNull) bad.push([null, /(got null$|must be an id)/]);
  return bad;
}

/** A value of a clearly wrong type for the field, which even the lenient read face rejects. */
export function wrongReadValue(field: SpecField): unknown {
  switch (field.type) {
    case 'id':
      return 'not-an-id';
    case 'int':
    case 'num':
    case 'time':
      return 'twelve';
    case 'str':
    case 'email':
    case 'enum':
      return { nested: 'object' };
    case 'bool':
      return 'yes';
  }
}

/** Values that break a write rule but that the read face keeps (it checks only types). */
export function writeOnlyViolations(field: SpecField): unknown[] {
  const kept: unknown[] = [];
  if (field.type === 'email') kept.push('not-an-email');
  if (field.type === 'enum') kept.push('Z');
  if (field.min0) kept.push(-1);
  if (field.length !== undefined) kept.push('X'.repeat(field.length + 1));
  return kept;
}

/** True when the spec documents null for the field ("or null", or optional without a default). */
function nullableInSpec(field: SpecField): boolean {
  return field.required === 'nullable' || field.nullable === true || (!field.required && !('default' in field));
}

/**
 * Lossless representations of a value a loosely typed backend writes, each with the documented
 * value the read face must make of it (docs/design.md, decision 4).
 */
export function looseReadValues(field: SpecField): Array<[unknown, unknown]> {
  const loose: Array<[unknown, unknown]> = [];
  switch (field.type) {
    case 'id':
      loose.push(['42', '42'], ['0', '0']);
      break;
    case 'int':
    case 'time':
      loose.push(['12500', 12500], ['-3', -3], ['0', 0], ['12.0', 12], ['1e3', 1000]);
      break;
    case 'num':
      loose.push(['1.21', 1.21], ['12500', 12500], ['-0.5', -0.5], ['2E-3', 0.002]);
      break;
    case 'bool':
      loose.push([1, true], [0, false], ['1', true], ['0', false], ['true', true], ['false', false]);
      break;
    default:
      break;
  }
  if ((field.type === 'int' || field.type === 'num' || field.type === 'time') && nullableInSpec(field)) loose.push(['', null]);
  return loose;
}

/** Values a loosely typed backend may write that cannot be read losslessly: refused on read. */
export function unreadableValues(field: SpecField): unknown[] {
  switch (field.type) {
    case 'id':
      return ['12abc', 1.5, '-4', true];
    case 'int':
    case 'time':
      return ['12abc', 1.5, '1.5', ' 12', '+1', '012', '0x10', 'NaN', '9007199254740993', true, ...(nullableInSpec(field) ? [] : [''])];
    case 'num':
      return ['12abc', ' 1', '1.2.3', 'Infinity', '.5', true, ...(nullableInSpec(field) ? [] : [''])];
    case 'bool':
      return [2, -1, '2', 'yes', 'TRUE', '', 'on'];
    default:
      return [];
  }
}
