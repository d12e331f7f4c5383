import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { RecordOf, RecordTypes, SchemaName } from '../schema/index.js';
import type { RawPage } from './raw-page.js';
import { collectRecords, collectRecordsInSlices, expectArray } from './read-body.js';
import type { RejectedRecord } from './rejected-record.js';
import type { JsonResponse } from './requester.js';
import { createTimeSlicer, type TimeSlicer } from '../schema/time-slicer.js';

export type { RejectedRecord };

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

/**
 * Reads a raw list page through the collection's read schema (ids normalized, unknown fields
 * kept); records that fail go to `rejected`. A repeat of the `id_start` record is dropped. The
 * reading gives the event loop a turn whenever `slicer` says (a page of 2,000 orders takes long
 * enough to hold up a tab's UI).
 */
export async function readRecordPage<C extends CollectionName>(
  collection: C,
  page: RawPage,
  slicer: TimeSlicer = createTimeSlicer(),
): Promise<RecordPage<RecordOf<C>>> {
  const { values, repeats } = page;
  const skip = repeats.length === 0 ? undefined : (index: number): boolean => repeats.includes(index);
  const { records, rejected } = await collectRecordsInSlices(collection, values, slicer, skip);
  return makeRecordPage(records, {
    rejected,
    cursor: page.cursor,
    done: page.done,
    serverTime: page.serverTime,
    limit: page.limit,
    bytes: page.bytes,
    rawCount: values.length,
  });
}

/**
 * The page of an endpoint that does not paginate (categories, latest orders): the whole answer in
 * one page, `done`, with no cursor.
 */
export function wholeRecordPage<T>(
  records: T[],
  rejected: RejectedRecord[],
  response: { serverTime: number | undefined; bytes: number },
  rawCount: number,
): RecordPage<T> {
  return makeRecordPage(records, {
    rejected,
    cursor: undefined,
    done: true,
    serverTime: response.serverTime,
    limit: Number.POSITIVE_INFINITY,
    bytes: response.bytes,
    rawCount,
  });
}

/**
 * Reads the array answer of an endpoint that does not paginate (categories, latest orders) through
 * the read face of `schema` into one {@link wholeRecordPage}; records that fail go to `rejected`.
 * When `keep` is given, only the good records it accepts are in the page.
 */
export function readWholeRecordPage<C extends SchemaName>(
  schema: C,
  response: JsonResponse,
  keep?: (record: RecordTypes[C]) => boolean,
): RecordPage<RecordTypes[C]> {
  const values = expectArray(response, schema);
  const { records, rejected } = collectRecords(schema, values);
  return wholeRecordPage(keep === undefined ? records : records.filter(keep), rejected, response, values.length);
}

/** Attaches page properties to an array of records. */
function makeRecordPage<T>(records: T[], page: Omit<Page<T>, 'records'>): RecordPage<T> {
  const props: PropertyDescriptorMap = { records: { value: records } };
  for (const [key, value] of Object.entries(page)) props[key] = { value };
  return Object.defineProperties(records, props) as RecordPage<T>;
}
