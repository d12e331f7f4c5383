import { ValidationError, type RequestInfo, type ValidationIssue } from '../errors/index.js';
import { tryToId, type Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import { parseRecord, type RecordOf, type SchemaName } from '../schema/index.js';

/** A record of a list page that failed its read schema: kept for quarantine, not dropped. */
export interface RejectedRecord {
  /** The collection (or `categories`) the record was read as. */
  collection: SchemaName;
  /** Position of the record in the page as the server sent it. */
  index: number;
  /** The record as parsed from JSON, untouched. */
  raw: unknown;
  /** Every problem found. */
  issues: ValidationIssue[];
}

/** What a page says besides its good records. */
export interface Page<T = unknown> {
  /** The good records, read through their schema (the page array itself). */
  readonly records: T[];
  /** Records that failed their read schema. */
  readonly rejected: RejectedRecord[];
  /**
   * Id of the last raw record of the page, good or bad: the `id_start` of the next page.
   * Persist it to resume an interrupted traversal. `undefined` when the page held no readable id.
   */
  readonly cursor: Id | undefined;
  /**
   * True on the last page: fewer raw records came back than `limit` asked for (spec: Pagination
   * rule 2), unless the page nearly filled the orders response cap.
   */
  readonly done: boolean;
  /** Server clock from the response's `Date` header, in ms (1 s resolution). */
  readonly serverTime: number | undefined;
  /** The `limit` this page was requested with. */
  readonly limit: number;
  /** Size of the response body in bytes. */
  readonly bytes: number;
  /** Raw records the server sent, the repeated `id_start` record included. */
  readonly rawCount: number;
}

/**
 * One page of a list: an array of the good records (so it is usable wherever `Rec[]` is), with the
 * {@link Page} properties attached as non-enumerable, read-only properties. Spreading, `slice` or
 * `structuredClone` keep only the records.
 */
export type RecordPage<T> = T[] & Page<T>;

/** The context {@link readRecordPage} needs. */
export interface PageContext {
  request: RequestInfo;
  /** The `id_start` sent, if any: a repeat of that record is dropped. */
  idStart: Id | undefined;
  limit: number;
  bytes: number;
  serverTime: number | undefined;
  /**
   * The collection's response cap in bytes (orders). A short page this close to it may have been
   * cut by the server at a record boundary, so it is not taken for the last page.
   */
  capBytes?: number | undefined;
}

/** Share of the response cap from which a short page is suspected of having been cut. */
const CUT_SUSPICION = 0.9;

/**
 * Reads a list response: each raw record goes through the collection's read schema (ids
 * normalized, unknown fields kept); failures go to `rejected`. The record named by `id_start` is
 * dropped wherever the server repeats it (spec gap: whether `id_start` is excluded is not shown).
 */
export function readRecordPage<C extends CollectionName>(collection: C, value: unknown, context: PageContext): RecordPage<RecordOf<C>> {
  if (!Array.isArray(value)) {
    const where = `${context.request.method} ${context.request.path}`;
    throw new ValidationError(`the response of ${where} is not a JSON array of ${collection}`, {
      request: context.request,
      issues: [{ path: [], message: `expected an array, got ${value === null ? 'null' : typeof value}` }],
    });
  }
  const repeated = context.idStart === undefined || context.idStart === '0' ? undefined : context.idStart;
  const records: RecordOf<C>[] = [];
  const rejected: RejectedRecord[] = [];
  let cursor: Id | undefined;
  for (let index = 0; index < value.length; index++) {
    const raw: unknown = value[index];
    const id = rawId(raw);
    if (id !== undefined) cursor = id;
    if (repeated !== undefined && id === repeated) continue;
    const result = parseRecord(collection, raw);
    if (result.ok) records.push(result.record);
    else rejected.push({ collection, index, raw, issues: result.issues });
  }
  return makeRecordPage(records, {
    rejected,
    cursor,
    done: value.length < context.limit && !(context.capBytes !== undefined && context.bytes >= context.capBytes * CUT_SUSPICION),
    serverTime: context.serverTime,
    limit: context.limit,
    bytes: context.bytes,
    rawCount: value.length,
  });
}

/** Attaches page properties to an array of records. */
export function makeRecordPage<T>(records: T[], page: Omit<Page<T>, 'records'>): RecordPage<T> {
  const props: PropertyDescriptorMap = { records: { value: records } };
  for (const [key, value] of Object.entries(page)) props[key] = { value };
  return Object.defineProperties(records, props) as RecordPage<T>;
}

/** The id of a raw record as the server sent it (number or string), canonical, if it has one. */
export function rawId(raw: unknown): Id | undefined {
  return typeof raw === 'object' && raw !== null ? tryToId((raw as { id?: unknown }).id) : undefined;
}
