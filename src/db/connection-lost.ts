import { Dexie } from 'dexie';
import { isErrorLike } from './error-shape.js';

/**
 * True when `error` (or what it wraps: Dexie's `inner`, a `cause`, a `BulkError`'s `failures`)
 * says the connection to IndexedDB went away under the page, as each engine says it:
 * - WebKit, once the process that serves IndexedDB (its network process) died: every open of
 *   the page's IndexedDB fails with `UnknownError: Connection to Indexed Database server lost.
 *   Refresh the page to try again`, for good, and a transaction under way when it died aborts with
 *   `UnknownError: An internal error was encountered in the Indexed Database server` (WebKit's
 *   only word for it: any such error is taken as a lost connection, which costs a reopen);
 * - a transaction asked of a connection the engine closed: `InvalidStateError` ("The database
 *   connection is closing.");
 * - Dexie's `DatabaseClosedError`, for an operation on a database it saw closed.
 */
export function isConnectionLost(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    // By shape, not `instanceof`: once the database was opened again on a fresh frame's IndexedDB
    // (`reopen.ts`), the engine's errors are that frame's, instances of its Error and DOMException.
    if (!isErrorLike(e) || depth > 5 || seen.has(e)) return false;
    seen.add(e);
    if (e instanceof Dexie.DatabaseClosedError) return true;
    if (e.name === 'UnknownError' && SERVER_LOST.test(e.message)) return true;
    if (e.name === 'InvalidStateError' && CLOSING.test(e.message)) return true;
    const { inner, cause, failures } = e as { inner?: unknown; cause?: unknown; failures?: unknown };
    return [inner, cause, ...(Array.isArray(failures) ? (failures as unknown[]) : [])].some((next) => visit(next, depth + 1));
  };
  return visit(error, 0);
}

/** WebKit's messages once its IndexedDB server is gone (for new opens, and for a transaction under way). */
const SERVER_LOST = /indexed ?database server lost|internal error was encountered in the indexed ?database server/i;

/** A transaction asked of a connection that is closed or closing. */
const CLOSING = /connection is clos(ing|ed)|database (is )?closed/i;
