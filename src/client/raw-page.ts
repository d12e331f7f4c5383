import { kindOf, ValidationError, type RequestInfo } from '../errors/index.js';
import { tryToId, type Id } from '../ids/id.js';

/** Share of the response cap from which a short page is suspected of having been cut. */
const CUT_SUSPICION = 0.9;

/**
 * A list response, parsed as JSON but not yet read through the schema: everything pagination
 * needs (cursor, whether it is the last page, whether it moved) is known here, so the next page
 * can be requested while this one is validated.
 */
export interface RawPage {
  /** The raw records, in server order. */
  values: unknown[];
  request: RequestInfo;
  /** The `id_start` sent, if any. */
  idStart: Id | undefined;
  limit: number;
  bytes: number;
  serverTime: number | undefined;
  /** Id of the last raw record with a readable id. */
  cursor: Id | undefined;
  /** Indexes in `values` of the raw records that repeat the `id_start` record, ascending. */
  repeats: readonly number[];
  /** Raw records other than a repeat of the `id_start` record. */
  fresh: number;
  /** Fewer raw records than `limit`, and not suspected of having been cut at the size cap. */
  done: boolean;
}

/** What {@link toRawPage} needs besides the body. */
export interface RawPageContext {
  request: RequestInfo;
  idStart: Id | undefined;
  limit: number;
  bytes: number;
  serverTime: number | undefined;
  /**
   * The collection's response cap in bytes (orders). A short page this close to it may have been
   * cut by the server at a record boundary, so it is not taken for the last page.
   */
  capBytes: number | undefined;
}

/**
 * Checks that a list body is an array and works out its cursor, repeats, fresh count and end: the
 * last page is the one with fewer raw records than `limit` (spec: Pagination rule 2); the record
 * named by `id_start` is found once here (its `repeats`) and does not count as fresh (spec gap:
 * whether the server repeats it is not shown).
 */
export function toRawPage(collection: string, value: unknown, context: RawPageContext): RawPage {
  if (!Array.isArray(value)) {
    const where = `${context.request.method} ${context.request.path}`;
    throw new ValidationError(`the response of ${where} is not a JSON array of ${collection}`, {
      request: context.request,
      issues: [{ path: [], message: `expected an array, got ${kindOf(value)}` }],
    });
  }
  const repeated = context.idStart === undefined || context.idStart === '0' ? undefined : context.idStart;
  let cursor: Id | undefined;
  for (let index = value.length - 1; index >= 0 && cursor === undefined; index--) cursor = rawId(value[index]);
  const repeats: number[] = [];
  if (repeated !== undefined) for (let index = 0; index < value.length; index++) if (rawId(value[index]) === repeated) repeats.push(index);
  const nearCap = context.capBytes !== undefined && context.bytes >= context.capBytes * CUT_SUSPICION;
  return {
    values: value,
    request: context.request,
    idStart: context.idStart,
    limit: context.limit,
    bytes: context.bytes,
    serverTime: context.serverTime,
    cursor,
    repeats,
    fresh: value.length - repeats.length,
    done: value.length < context.limit && !nearCap,
  };
}

/** The id of a raw record as the server sent it (number or string), canonical, if it has one. */
export function rawId(raw: unknown): Id | undefined {
  return typeof raw === 'object' && raw !== null ? tryToId((raw as { id?: unknown }).id) : undefined;
}
