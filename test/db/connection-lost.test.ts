import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { isConnectionLost } from '../../src/db/connection-lost.js';

const webkitLost = () => new DOMException('Connection to Indexed Database server lost. Refresh the page to try again', 'UnknownError');

describe('isConnectionLost', () => {
  it('knows WebKit\'s lost server, alone and as Dexie wraps it when it opens again', () => {
    expect(isConnectionLost(webkitLost())).toBe(true);
    expect(isConnectionLost(new Dexie.OpenFailedError('open failed', webkitLost()))).toBe(true);
    // A transaction under way when the server died: Dexie's AbortError around WebKit's internal error.
    const internal = new DOMException('An internal error was encountered in the Indexed Database server', 'UnknownError');
    expect(isConnectionLost(new Dexie.AbortError('UnknownError An internal error was encountered in the Indexed Database server', internal))).toBe(true);
  });

  it('knows a transaction asked of a closing connection, and Dexie\'s closed database', () => {
    expect(isConnectionLost(new DOMException("Failed to execute 'transaction' on 'IDBDatabase': The database connection is closing.", 'InvalidStateError'))).toBe(true);
    expect(isConnectionLost(new Dexie.DatabaseClosedError('Database has been closed'))).toBe(true);
  });

  it('leaves other storage failures alone', () => {
    expect(isConnectionLost(new DOMException('', 'QuotaExceededError'))).toBe(false);
    expect(isConnectionLost(new DOMException('The operation failed for reasons unrelated to the database itself', 'UnknownError'))).toBe(false);
    expect(isConnectionLost(new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError'))).toBe(false);
    expect(isConnectionLost(new Error('boom'))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
  });
});
