import { describe, expect, it } from 'vitest';
import { isDomException, isErrorLike } from '../../src/db/error-shape.js';

describe('error shapes', () => {
  it('takes anything with a string name and message for an error, as another realm makes them', () => {
    expect(isErrorLike(new Error('x'))).toBe(true);
    expect(isErrorLike(new DOMException('x', 'UnknownError'))).toBe(true);
    // An error of another realm is no instance of this one's Error.
    const foreign = Object.assign(Object.create(null) as object, { name: 'UnknownError', message: 'Connection to Indexed Database server lost' });
    expect(foreign instanceof Error).toBe(false);
    expect(isErrorLike(foreign)).toBe(true);
    for (const value of [null, undefined, 'UnknownError', 42, { name: 'x' }, { message: 'y' }, { name: 1, message: 'y' }]) expect(isErrorLike(value)).toBe(false);
  });

  it('knows a DOMException by its tag, not by its constructor', () => {
    expect(isDomException(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isDomException(new Error('x'))).toBe(false);
    const foreign = { name: 'AbortError', message: 'aborted', [Symbol.toStringTag]: 'DOMException' };
    expect(isDomException(foreign)).toBe(true);
  });
});
