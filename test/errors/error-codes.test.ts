import { describe, expect, it } from 'vitest';
import {
  AuthError,
  HttpError,
  InvalidCursorError,
  JsonParseError,
  NetworkError,
  PosCloudError,
  RateLimitError,
  StorageError,
  TimeoutError,
  ValidationError,
  type PosCloudErrorCode,
} from '../../src/errors/index.js';
import { PaginationError } from '../../src/client/pagination-error.js';
import { errorOfTry } from '../../src/client/fetch-errors.js';
import { errorForResponse, serviceReason } from '../../src/client/response-error.js';
import { toId } from '../../src/ids/id.js';

const request = { method: 'GET', path: '/customers?limit=100' };

describe('error codes', () => {
  it('gives every error class of the library its own stable code', () => {
    const http = { request, status: 500 };
    const errors: [PosCloudError, PosCloudErrorCode][] = [
      [new PosCloudError('x'), 'pos-cloud'],
      [new HttpError('x', http), 'http'],
      [new AuthError('x', { ...http, status: 401 }), 'auth'],
      [new RateLimitError('x', { ...http, status: 429, retryAfterMs: undefined }), 'rate-limit'],
      [new InvalidCursorError('x', { ...http, status: 400 }), 'invalid-cursor'],
      [new NetworkError('x'), 'network'],
      [new TimeoutError('x'), 'timeout'],
      [new JsonParseError('x', { offset: 0 } as never), 'json-parse'],
      [new ValidationError('x', { issues: [] }), 'validation'],
      [new StorageError('x', { problem: 'unwritable' } as never), 'storage'],
      [new PaginationError('x', { collection: 'orders', cursor: undefined }), 'pagination'],
    ];
    expect(errors.map(([error]) => error.code)).toEqual(errors.map(([, code]) => code));
  });

  it('makes toId refuse a bad id with a ValidationError naming what it got', () => {
    expect(() => toId('12a')).toThrow(ValidationError);
    expect(() => toId(-1)).toThrow(/not an id: expected a non-negative integer, bigint or digit string, got number -1/);
  });
});

describe('the service reason in an HttpError', () => {
  const failed = (status: number, body: string) => errorForResponse({ status, headers: new Headers(), body: new TextEncoder().encode(body), request }, 'secret-token-1', 0);

  it('quotes the service own words from a text body or a JSON message field', () => {
    expect(failed(422, 'company must not be empty').message).toBe('the service refused the request: the service said "company must not be empty" (422 on GET /customers?limit=100)');
    expect(failed(500, '{"error":"database\\n  is down"}').message).toContain('the service said "database is down"');
    expect(serviceReason({ message: '', detail: 'no such shop' })).toBe('no such shop');
  });

  it('says nothing more when the body has no words, and never the token', () => {
    expect(failed(500, '').message).toBe('the service failed (500 on GET /customers?limit=100)');
    expect(failed(500, '{"code":7}').message).toBe('the service failed (500 on GET /customers?limit=100)');
    expect(failed(401, 'bad token A|secret-token-1').message).not.toContain('secret-token-1');
    expect(serviceReason('x'.repeat(300))).toHaveLength(201);
  });
});

describe('a NetworkError in a page', () => {
  it('says a cross-origin request the server does not allow fails the same way', () => {
    const page = globalThis as { document?: unknown; location?: unknown };
    page.document = {};
    page.location = { origin: 'https://companion.example' };
    try {
      const error = errorOfTry(new TypeError('Failed to fetch'), request, 'secret-token-1', 5000);
      expect(error.code).toBe('network');
      expect(error.message).toContain('CORS headers for https://companion.example');
    } finally {
      delete page.document;
      delete page.location;
    }
    expect(errorOfTry(new TypeError('fetch failed'), request, 'secret-token-1', 5000).message).not.toContain('CORS');
  });
});
