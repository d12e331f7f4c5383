import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/client/retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('3', null, now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', null, now)).toBe(0);
  });

  it('reads an HTTP date against the response Date header rather than the local clock', () => {
    const date = 'Sat, 01 Mar 2025 12:00:00 GMT';
    const retryAt = 'Sat, 01 Mar 2025 12:00:07 GMT';
    expect(parseRetryAfter(retryAt, date, now + 3_600_000)).toBe(7_000);
    expect(parseRetryAfter(retryAt, null, now)).toBe(7_000);
  });

  it('never returns a negative wait for a date in the past', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', null, now)).toBe(0);
  });

  it('ignores missing and unreadable values', () => {
    expect(parseRetryAfter(null, null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', null, now)).toBeUndefined();
    expect(parseRetryAfter('-5', null, now)).toBeUndefined();
    expect(parseRetryAfter('1.5', null, now)).toBeUndefined();
  });
});
