import { runInNewContext } from 'node:vm';
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

  it("knows the loss from the IndexedDB of the fresh frame the database was opened on again (another realm's errors)", () => {
    // Once reopened on a frame's IndexedDB (`reopen.ts`), the engine's errors are the frame's: not
    // instances of the page's Error or DOMException. Found by the browser soak with storage kills
    // (`--seed 1 --minutes 2 --engine webkit --storage-kills`): a create's transaction, under way at
    // the second kill, rejected with this AbortError, taken for another failure.
    const frameError = (message: string) => runInNewContext('Object.assign(new Error(message), { name: "UnknownError" })', { message }) as Error;
    expect(frameError('x') instanceof Error).toBe(false);
    const internal = frameError('An internal error was encountered in the Indexed Database server');
    expect(isConnectionLost(new Dexie.AbortError('UnknownError An internal error was encountered in the Indexed Database server', internal))).toBe(true);
    expect(isConnectionLost(frameError('Connection to Indexed Database server lost. Refresh the page to try again'))).toBe(true);
    expect(isConnectionLost(frameError('The operation failed for reasons unrelated to the database itself'))).toBe(false);
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
