import { z } from 'zod';
import { id, optional, time, withDefault, type Fields } from './field.js';
import { idField, idValue } from './id-field.js';
import { normalizeIdFields } from './id-fields.js';
import { currentTime } from './write-clock.js';

/** Write shape of a field table: each field's write face. */
type WriteShape<F extends Fields> = { -readonly [K in keyof F]: F[K]['write'] };

/** Read shape of a field table: each field's read face. */
type ReadShape<F extends Fields> = { -readonly [K in keyof F]: F[K]['read'] };

/** The two faces of one resource. */
interface RecordSchemas<R extends z.ZodType = z.ZodType, W extends z.ZodType = z.ZodType> {
  /** What the server sends: lenient, keeps unknown fields, rejects only what the mirror cannot use. */
  readonly read: R;
  /** What a local edit must satisfy before it is stored and pushed; fills every documented default. */
  readonly write: W;
}

/** Write shape of a field table. */
export function writeShape<F extends Fields>(fields: F): WriteShape<F> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.write])) as WriteShape<F>;
}

/** Read shape of a field table. */
export function readShape<F extends Fields>(fields: F): ReadShape<F> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.read])) as ReadShape<F>;
}

/**
 * The common fields of every record, for the table `_t`. On write: `id` optional (missing or 0
 * means create), `_v` a non-negative integer when given (the server stamps it), `_d` defaults to 0,
 * `_t` defaults to the literal and any other value is an error. On read: `id` and a non-negative
 * integer `_v` are required (the mirror keys and checkpoints on them), `_d` and `_t` are filled in,
 * and a `_t` naming another table is an error.
 */
export function commonFields<T extends string>(table: T) {
  return {
    id: { write: idField.optional(), read: idValue },
    id_c: optional(id()),
    _v: { write: z.int().min(0).optional(), read: z.int().min(0) },
    _d: {
      write: z.int().min(0).default(0),
      // A null or missing marker means "not deleted": the mirror tests `_d !== 0`.
      read: z.number().nullable().optional().transform((value) => value ?? 0),
    },
    _t: { write: z.literal(table).default(table), read: z.literal(table).default(table) },
  } satisfies Fields;
}

/**
 * Common fields of a table whose `_t` literal the spec does not state (shops, cash_registers,
 * park_locations, shifts, categories): the write face sends the table name, the read face keeps
 * whatever string the server sends (filling the name when missing) rather than guess and reject.
 */
export function commonFieldsUnstatedTable<T extends string>(table: T) {
  return {
    ...commonFields(table),
    _t: { write: z.literal(table).default(table), read: z.string().default(table) },
  } satisfies Fields;
}

/** `date_created` (integer ms, default: the current time), for records that carry it. */
export const dateCreatedField = { date_created: withDefault(time(), currentTime) } satisfies Fields;

/** Keys that are never part of a write record: `pgx` (internal key), `_u_dyn`, and `__*` hydrations. */
export function isReadOnlyKey(key: string): boolean {
  return key === 'pgx' || key === '_u_dyn' || key.startsWith('__');
}

/**
 * Read-only fields every server record carries, kept on read as they come and unchecked: `pgx`
 * (the composite internal key the spec says to ignore) and `_u_dyn` (undescribed). They are named
 * in the read shape, after every other field, rather than left to the catch-all for speed: zod adds
 * a field the shape does not name under a computed key, and V8 turns an object of more than a
 * dozen or so fields into a slow dictionary on such an add (orders and products did, on every parse).
 */
const keptAsSent = { pgx: z.unknown().optional(), _u_dyn: z.unknown().optional() };

/** Drops read-only keys from a parsed write record and canonicalizes its ids. */
export function finishWrite<T extends object>(record: T): T {
  const keys = Object.keys(record);
  if (!keys.some(isReadOnlyKey)) return normalizeIdFields(record);
  // A fresh object rather than `delete`, which would turn the record into a slow dictionary.
  const fields = record as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of keys) if (!isReadOnlyKey(key)) kept[key] = fields[key];
  return normalizeIdFields(kept as T);
}

/**
 * Builds both faces of a resource from its field table (spec's words) and the common fields.
 * Unknown fields are kept on both faces; `hydrations` are read-only child objects (`__*` keys)
 * parsed on read and stripped on write.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- zod's own default for "no extra shape"
export function defineRecord<T extends string, F extends Fields, H extends z.core.$ZodLooseShape = {}>(
  table: T,
  fields: F,
  hydrations?: H,
) {
  return defineRecordWith(commonFields(table), fields, hydrations);
}

/** {@link defineRecord} for a table whose `_t` literal the spec does not state. */
export function defineUnstatedRecord<T extends string, F extends Fields>(table: T, fields: F) {
  return defineRecordWith(commonFieldsUnstatedTable(table), fields);
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as above
function defineRecordWith<C extends Fields, F extends Fields, H extends z.core.$ZodLooseShape = {}>(
  common: C,
  fields: F,
  hydrations?: H,
) {
  const write = z.looseObject({ ...writeShape(common), ...writeShape(fields) }).overwrite(finishWrite);
  const read = z
    .looseObject({ ...readShape(common), ...readShape(fields), ...((hydrations ?? {}) as H), ...keptAsSent })
    .overwrite(normalizeIdFields);
  return { read, write } satisfies RecordSchemas;
}
