import { formatIssues, kindOf, ValidationError, type ValidationIssue } from '../errors/index.js';
import { parseRecord, type RecordTypes, type SchemaName } from '../schema/index.js';
import type { RejectedRecord } from './rejected-record.js';
import type { JsonResponse } from './requester.js';
import type { TimeSlicer } from '../schema/time-slicer.js';

/** Good and rejected records of a response array. */
export interface Collected<T> {
  records: T[];
  rejected: RejectedRecord[];
}

/**
 * Reads every element of `raws` with the read face of `schema`; failures are collected, not thrown.
 * Elements whose index `skip` accepts are left out of both lists; a rejected record keeps its index
 * in `raws`.
 */
export function collectRecords<C extends SchemaName>(
  schema: C,
  raws: readonly unknown[],
  skip?: (index: number) => boolean,
): Collected<RecordTypes[C]> {
  const out: Collected<RecordTypes[C]> = { records: [], rejected: [] };
  for (let index = 0; index < raws.length; index++) {
    if (!skip?.(index)) collectOne(schema, raws, index, out);
  }
  return out;
}

/**
 * {@link collectRecords}, giving the event loop a turn whenever `slicer` says a slice has run its
 * time: the same records, in the same order, as one call would give.
 */
export async function collectRecordsInSlices<C extends SchemaName>(
  schema: C,
  raws: readonly unknown[],
  slicer: TimeSlicer,
  skip?: (index: number) => boolean,
): Promise<Collected<RecordTypes[C]>> {
  const out: Collected<RecordTypes[C]> = { records: [], rejected: [] };
  for (let index = 0; index < raws.length; index++) {
    if (slicer.due()) await slicer.yield();
    if (!skip?.(index)) collectOne(schema, raws, index, out);
  }
  return out;
}

/** Reads `raws[index]` with the read face of `schema` into `out`'s records, or its rejected ones. */
function collectOne<C extends SchemaName>(schema: C, raws: readonly unknown[], index: number, out: Collected<RecordTypes[C]>): void {
  const raw: unknown = raws[index];
  const result = parseRecord(schema, raw);
  if (result.ok) out.records.push(result.record);
  else out.rejected.push({ collection: schema, index, raw, issues: result.issues });
}

/** The response body as an array, else a `ValidationError` naming the endpoint. */
export function expectArray(response: JsonResponse, what: string): unknown[] {
  if (Array.isArray(response.value)) return response.value;
  throw invalidBody(response, [{ path: [], message: `expected an array of ${what}, got ${kindOf(response.value)}` }]);
}

/** The response body read as one record of `schema`, else a `ValidationError` naming the endpoint. */
export function expectRecord<C extends SchemaName>(schema: C, response: JsonResponse): RecordTypes[C] {
  const result = parseRecord(schema, response.value);
  if (result.ok) return result.record;
  throw invalidBody(response, result.issues);
}

/** A `ValidationError` saying the body of `response` does not match its schema, with every issue. */
export function invalidBody(response: JsonResponse, issues: ValidationIssue[]): ValidationError {
  const { method, path } = response.request;
  const shown = formatIssues(issues, { max: 5, whole: '(body)' });
  return new ValidationError(`the response of ${method} ${path} does not match its schema: ${shown}`, { request: response.request, issues });
}
