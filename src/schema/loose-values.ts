import type { Fields, LooseKind } from './field.js';

/**
 * Values as a loosely typed backend writes them, read as the documented type (docs/design.md,
 * decision 4). The read faces stay strict and fast; a record they refuse is read again once its
 * loose values are made documented ones, field by field, where the text is lossless:
 *
 * - a number: a finite number, or a string holding a JSON number literal (`"12500"`, `"1.21"`,
 *   `"-3"`, `"1e3"`): the text a server that quotes its numbers writes. Not `" 12"`, `"+1"`,
 *   `"012"`, `"0x10"`, `"12abc"`, `"NaN"` or `""`: none is a number as JSON writes one.
 * - an integer: the same, when the value is a whole number within ±2^53 (`"12.0"` is 12; `1.5`,
 *   `"1.5"` and an integer whose exact digits a double cannot hold are refused).
 * - a boolean: `true`/`false`, `0`/`1`, `"0"`/`"1"` and `"true"`/`"false"`; `2` or `"yes"` are refused.
 * - where the spec documents null (a nullable or optional number), `""` is null.
 * - ids were always read from numbers and digit strings alike (see `id-field.ts`); strings stay
 *   strings (a number where text is documented is not taken for its digits: a code such as an
 *   EAN may have lost its leading zeros on the way).
 *
 * A value none of these makes documented is left as it came, so the read face refuses it, naming
 * the field, and the record is quarantined.
 */

/** How one field may be written loosely. */
export interface LooseRule {
  kind: LooseKind;
  /** `""` reads as null. */
  emptyIsNull: boolean;
}

/** The loose rules of a record's fields, by wire name. */
export type LooseRules = Readonly<Record<string, LooseRule>>;

/** The nested records a record carries, each read by its own table's rules. */
export type NestedRules = Readonly<Record<string, { rules: () => LooseRules; nested?: () => NestedRules; many: boolean }>>;

/** The rules of a field table: its number, integer and boolean fields (plus `_v` and `_d`). */
export function looseRulesOf(fields: Fields): LooseRules {
  const rules: Record<string, LooseRule> = { _v: { kind: 'integer', emptyIsNull: false }, _d: { kind: 'number', emptyIsNull: true } };
  for (const [name, field] of Object.entries(fields)) {
    // `""` is null for a documented nullable number only: a boolean written `""` says nothing.
    if (field.loose) rules[name] = { kind: field.loose, emptyIsNull: field.loose !== 'boolean' && field.emptyIsNull === true };
  }
  return rules;
}

/** A JSON number literal (RFC 8259, section 6), the whole string. */
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The documented value of a loosely written one, or `value` itself when it cannot be read losslessly. */
export function looseValue(value: unknown, rule: LooseRule): unknown {
  if (value === '' && rule.emptyIsNull) return null;
  if (rule.kind === 'boolean') {
    if (value === 1 || value === '1' || value === 'true') return true;
    if (value === 0 || value === '0' || value === 'false') return false;
    return value;
  }
  if (typeof value !== 'string' || !NUMBER_TEXT.test(value)) return value;
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  if (rule.kind === 'integer' && !Number.isSafeInteger(n)) return value;
  return n;
}

/**
 * `raw` with every loosely written value of a known field made documented (see the module), its
 * nested records too; `raw` itself when nothing changed or it is not a record.
 */
export function readLoosely(raw: unknown, rules: LooseRules, nested: NestedRules = {}): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const record = raw as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const value = record[key];
    let next = value;
    const rule = rules[key];
    if (rule) next = looseValue(value, rule);
    else {
      const inner = nested[key];
      if (inner) next = inner.many && Array.isArray(value) ? readAll(value, inner.rules(), inner.nested?.()) : readLoosely(value, inner.rules(), inner.nested?.());
    }
    if (next !== value) {
      out ??= { ...record };
      out[key] = next;
    }
  }
  return out ?? raw;
}

function readAll(values: readonly unknown[], rules: LooseRules, nested: NestedRules | undefined): unknown[] {
  let out: unknown[] | undefined;
  values.forEach((value, i) => {
    const next = readLoosely(value, rules, nested);
    if (next !== value) {
      out ??= [...values];
      out[i] = next;
    }
  });
  return out ?? (values as unknown[]);
}
