import { conversionError } from './conversion-error.js';
import { describeValue } from '../errors/index.js';

/**
 * A time of the service (Unix milliseconds, UTC, an integer: spec convention 1, every `date_*`
 * field) as a `Date`. Throws a ValidationError for NaN, fractions, unsafe integers and times
 * outside the range a `Date` can hold.
 */
export function toDate(ms: number): Date {
  if (!Number.isSafeInteger(ms)) {
    throw conversionError('toDate', `expected a time in integer ms, got ${describeValue(ms)}`);
  }
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) {
    throw conversionError('toDate', `${ms} ms is outside the range of a Date`);
  }
  return date;
}

/** A `Date` as a time of the service (integer Unix ms). Throws a ValidationError for an invalid Date. */
export function fromDate(date: Date): number {
  if (!(date instanceof Date)) throw conversionError('fromDate', `expected a Date, got ${describeValue(date)}`);
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw conversionError('fromDate', 'the Date is invalid');
  return ms;
}
