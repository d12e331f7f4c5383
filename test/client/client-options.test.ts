import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { CLIENT_DEFAULTS, resolveClientOptions, type ClientOptions } from '../../src/client/client-options.js';

const good: ClientOptions = { baseUrl: 'http://127.0.0.1:8787/api/', token: 'tok-123456', userAgent: 'pos-tests (dev@example.com)' };

function refusal(options: unknown): ValidationError {
  try {
    resolveClientOptions(options as ClientOptions);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('resolveClientOptions', () => {
  it('fills every default and drops the trailing slash of the base URL', () => {
    const resolved = resolveClientOptions(good);
    expect(resolved.baseUrl).toBe('http://127.0.0.1:8787/api');
    expect(resolved.timeoutMs).toBe(CLIENT_DEFAULTS.timeoutMs);
    expect(resolved.retry).toEqual(CLIENT_DEFAULTS.retry);
  });

  it('refuses a missing or empty token, naming the option but never echoing a value', () => {
    expect(refusal({ ...good, token: '' }).issues).toEqual([{ path: ['token'], message: expect.stringContaining('required') }]);
    expect(refusal({ ...good, token: undefined }).issues[0]?.path).toEqual(['token']);
    const withNewline = refusal({ ...good, token: 'secret-abc\r\nX-Evil: 1' });
    expect(withNewline.issues[0]?.path).toEqual(['token']);
    expect(withNewline.message).not.toContain('secret-abc');
  });

  it('refuses a missing or empty user agent', () => {
    expect(refusal({ ...good, userAgent: '  ' }).issues[0]?.path).toEqual(['userAgent']);
    expect(refusal({ ...good, userAgent: undefined }).message).toContain('userAgent');
  });

  it('refuses a base URL that is not http(s), carries credentials or a query', () => {
    expect(refusal({ ...good, baseUrl: 'ftp://example.com' }).message).toContain('baseUrl: must be http or https');
    expect(refusal({ ...good, baseUrl: 'not a url' }).issues[0]?.path).toEqual(['baseUrl']);
    expect(refusal({ ...good, baseUrl: 'https://u:p@example.com' }).message).toContain('credentials');
    expect(refusal({ ...good, baseUrl: 'https://example.com/?x=1' }).message).toContain('query');
  });

  it('lists every bad option at once', () => {
    const error = refusal({ baseUrl: 'file:///x', token: '', userAgent: '', timeoutMs: -1, retry: { limit: -1, maxDelayMs: Number.NaN } });
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['baseUrl', 'token', 'userAgent', 'timeoutMs', 'retry.limit', 'retry.maxDelayMs']);
  });

  it('takes ky\'s retry options and meanings: a number is the limit, and the limit counts retries after the first try', () => {
    expect(resolveClientOptions({ ...good, retry: 0 }).retry.limit).toBe(0);
    expect(resolveClientOptions({ ...good, retry: 7 }).retry).toEqual({ ...CLIENT_DEFAULTS.retry, limit: 7 });
    const custom = resolveClientOptions({ ...good, retry: { limit: 1, methods: ['get'], statusCodes: [503], afterStatusCodes: [], maxRetryAfter: 5_000, backoffLimit: 2_000, jitter: false } });
    expect(custom.retry).toEqual({ ...CLIENT_DEFAULTS.retry, limit: 1, methods: ['get'], statusCodes: [503], afterStatusCodes: [], maxRetryAfter: 5_000, backoffLimit: 2_000, jitter: false });
    expect(resolveClientOptions({ ...good, retry: { maxDelayMs: 9_000 } }).retry.backoffLimit).toBe(9_000);
  });

  it('refuses retry options ky would not understand, naming each', () => {
    const error = refusal({ ...good, retry: { limit: 1.5, methods: ['put'], statusCodes: [200], tries: 3, maxDelayMs: 1, backoffLimit: 2 } });
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['retry.tries', 'retry.limit', 'retry.methods', 'retry.statusCodes', 'retry.maxDelayMs']);
    expect(refusal({ ...good, retry: 'often' }).issues[0]?.path).toEqual(['retry']);
  });

  it('refuses a token too short to be a real one, without echoing it', () => {
    const error = refusal({ ...good, token: 'x' });
    expect(error.issues).toEqual([{ path: ['token'], message: expect.stringContaining('at least 8 characters') }]);
    expect(resolveClientOptions({ ...good, token: 'eight-ch' }).token).toBe('eight-ch');
  });
});
