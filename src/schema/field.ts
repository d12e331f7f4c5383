import { z } from 'zod';
import { idField, idValue } from './id-field.js';

/**
 * A value type of the spec in both faces, before presence is decided: `write` carries every
 * rule a local edit must satisfy, `read` only what the mirror needs to trust a server value.
 */
export interface Kind<W extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly write: W;
  readonly read: R;
  /** How a loosely typed backend may write the value instead (see `loose-values.ts`). */
  readonly loose?: LooseKind;
  /** The spec documents null for it ("X or null"): a loosely typed backend's `""` reads as null. */
  readonly emptyIsNull?: true;
}

/** The value types a loosely typed backend writes in another form (numbers as strings, booleans as 0/1). */
export type LooseKind = 'number' | 'integer' | 'boolean';

/**
 * One field of a resource table, in both faces: a {@link Kind} whose presence is decided. Read
 * faces are lenient: every field but `id` and `_v` may be missing, optional ones may be null, and
 * format rules (e-mail, lengths, enums, ranges) are not checked, because a server record is never
 * rejected for what the mirror can use.
 */
export type Field<W extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> = Kind<W, R>;

/** The fields of one resource table, by wire name. */
export type Fields = Record<string, Field>;

type Lenient<R extends z.ZodType> = z.ZodOptional<z.ZodNullable<R>>;

// Read faces are shared: every number field of every table is parsed by the same schema object,
// so zod's calls from one layer to the next always meet the same target and V8 can inline them.
const readNumber = z.number();
const readInteger = z.int();
const readString = z.string();
const readBoolean = z.boolean();
const lenientFaces = new WeakMap<z.ZodType, z.ZodType>();

/** `read`, also allowing null and a missing key: one shared schema per read face. */
export function lenient<R extends z.ZodType>(read: R): Lenient<R> {
  let face = lenientFaces.get(read);
  if (face === undefined) {
    face = read.nullable().optional();
    lenientFaces.set(read, face);
  }
  return face as Lenient<R>;
}

// ---- kinds: the spec's value types --------------------------------------------------------

/**
 * `id`: a reference or key, normalized to the canonical Id string (on read by the record's
 * one pass over its id fields, see `idValue`).
 */
export function id(): Kind<typeof idField, typeof idValue> {
  return { write: idField, read: idValue };
}

/** `integer`, optionally `>= min`. Whole numbers on write and on read (ranges checked on write only). */
export function int(rule: { min?: number } = {}): Kind<z.ZodInt, z.ZodInt> {
  const write = rule.min === undefined ? z.int() : z.int().min(rule.min);
  return { write, read: readInteger, loose: 'integer' };
}

/** `number` (fractions allowed), optionally `>= min`. */
export function num(rule: { min?: number } = {}): Kind<z.ZodNumber, z.ZodNumber> {
  const write = rule.min === undefined ? z.number() : z.number().min(rule.min);
  return { write, read: readNumber, loose: 'number' };
}

/** A time: integer Unix milliseconds (spec convention 1). */
export function time(): Kind<z.ZodInt, z.ZodInt> {
  return int();
}

/** `string`, optionally of exactly `length` characters. */
export function str(rule: { length?: number } = {}): Kind<z.ZodString, z.ZodString> {
  const write = rule.length === undefined ? z.string() : z.string().length(rule.length);
  return { write, read: readString };
}

/** A string in valid e-mail format (checked on write only). */
export function email(): Kind<z.ZodEmail, z.ZodString> {
  return { write: z.email(), read: readString };
}

/** `boolean`. */
export function bool(): Kind<z.ZodBoolean, z.ZodBoolean> {
  return { write: z.boolean(), read: readBoolean, loose: 'boolean' };
}

/** One of a fixed set of strings (checked on write only: a new value from the server is kept). */
export function oneOf<const V extends readonly [string, ...string[]]>(
  values: V,
): Kind<z.ZodEnum<{ [K in V[number]]: K }>, z.ZodString> {
  return { write: z.enum(values), read: readString };
}

/** The kind, with `null` also allowed on write ("X or null" in the spec). */
export function nullable<W extends z.ZodType, R extends z.ZodType>(
  kind: Kind<W, R>,
): Kind<z.ZodNullable<W>, R> {
  return { ...kind, write: kind.write.nullable(), emptyIsNull: true };
}

// ---- presence: required, optional, defaulted -----------------------------------------------

/** Required on write (no default). On read it may be missing or null. */
export function required<W extends z.ZodType, R extends z.ZodType>(kind: Kind<W, R>): Field<W, Lenient<R>> {
  return { ...kind, write: kind.write, read: lenient(kind.read) };
}

/**
 * A required reference: an id on write. On read it may be missing or null (a record is never
 * quarantined for an unset reference: the mirror would lose it for nothing), but when present it
 * must be an id, since the mirror relates records through it.
 */
export function requiredRef(): Field<typeof idField, Lenient<typeof idValue>> {
  return required(id());
}

/**
 * Optional without a default: may be missing or `null` on write and on read. `null` is accepted
 * on write even where the spec's type has no "or null", because the server sends nulls for
 * unset values and a record read from it must survive an edit and a save.
 */
export function optional<W extends z.ZodType, R extends z.ZodType>(
  kind: Kind<W, R>,
): Field<z.ZodOptional<z.ZodNullable<W>>, Lenient<R>> {
  return { ...kind, write: kind.write.nullable().optional(), read: lenient(kind.read), emptyIsNull: true };
}

/**
 * Optional with a documented default, filled in on write when the key is missing. A function
 * default is called at each validation (the "current time" defaults). Read faces do not fill it.
 */
export function withDefault<W extends z.ZodType, R extends z.ZodType>(
  kind: Kind<W, R>,
  value: z.util.NoUndefined<z.output<W>> | (() => z.util.NoUndefined<z.output<W>>),
): Field<z.ZodDefault<W>, Lenient<R>> {
  const write = z._default(kind.write, value);
  return { ...kind, write, read: lenient(kind.read) };
}
