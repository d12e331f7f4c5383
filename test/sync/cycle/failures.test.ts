import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { describeError, isAbort, isQuotaError, quotaError } from '../../../src/sync/cycle/failures.js';

/** A quota error as Chromium makes it: no message at all. */
const chromiumQuota = () => new DOMException('', 'QuotaExceededError');

describe('failure kinds', () => {
  it('a transaction the engine aborted for lack of space is a quota error, not a cancellation (Chromium and Firefox fail the commit)', () => {
    const aborted = new Dexie.AbortError('QuotaExceededError', chromiumQuota());
    expect(isQuotaError(aborted)).toBe(true);
    expect(isAbort(aborted)).toBe(false);
  });

  it('a bulk write whose requests were refused for lack of space is a quota error (WebKit fails the request)', () => {
    const refused = new Dexie.QuotaExceededError(new DOMException('Failed to PutOrAdd: not enough space', 'QuotaExceededError'));
    const bulk = new Dexie.BulkError('order_details.bulkPut(): 2 of 2 operations failed', { 0: new Dexie.AbortError(), 1: refused } as never);
    expect(isQuotaError(bulk)).toBe(true);
    expect(isAbort(bulk)).toBe(false);
  });

  it('a quota error of another realm (a fresh frame\'s IndexedDB, after a reopen) is one too, and is described', () => {
    const foreign = { name: 'QuotaExceededError', message: '', [Symbol.toStringTag]: 'DOMException' };
    const aborted = new Dexie.AbortError('QuotaExceededError', foreign);
    expect(quotaError(aborted)).toBe(foreign);
    expect(describeError(foreign)).toEqual({ name: 'QuotaExceededError', message: 'the storage of this origin is full (quota exceeded)' });
  });

  it('a database that could not be opened for lack of space is a quota error', () => {
    expect(isQuotaError(new Dexie.DatabaseClosedError(new DOMException('The current transaction exceeded its quota limitations.', 'QuotaExceededError')))).toBe(true);
  });

  it('a cancellation is the runtime\'s AbortError, and a transaction aborted for another reason is neither', () => {
    expect(isAbort(new DOMException('sync stopped', 'AbortError'))).toBe(true);
    const other = new Dexie.AbortError('ConstraintError', new DOMException('Key already exists', 'ConstraintError'));
    expect(isAbort(other)).toBe(false);
    expect(isQuotaError(other)).toBe(false);
  });

  it('quotaError gives the quota error itself, described by its name and a message where the engine gave none', () => {
    const inner = chromiumQuota();
    expect(quotaError(new Dexie.AbortError('QuotaExceededError', inner))).toBe(inner);
    expect(quotaError(new Error('other'))).toBeUndefined();
    expect(describeError(inner)).toEqual({ name: 'QuotaExceededError', message: 'the storage of this origin is full (quota exceeded)' });
    expect(describeError(new DOMException('Failed to PutOrAdd: not enough space', 'QuotaExceededError')).message).toBe('Failed to PutOrAdd: not enough space');
  });
});
