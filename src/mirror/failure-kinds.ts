import { Dexie } from 'dexie';

/** A failure as the status shows it: name and message, nothing else (no secrets, no stack). */
export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** A run cut short on purpose (stop, close). */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** IndexedDB refused a write for lack of space; Dexie may wrap the DOMException as `inner`. */
export function isQuotaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = (e as { inner?: unknown; cause?: unknown }).inner ?? e.cause, depth++) {
    if (e.name === 'QuotaExceededError' || (e as { code?: number }).code === 22) return true;
  }
  return false;
}

/** The IndexedDB connection went away under the mirror (Safari closes them). */
export function isClosedDatabase(error: unknown): boolean {
  return (
    error instanceof Dexie.DatabaseClosedError ||
    (error instanceof Error && error.name === 'InvalidStateError' && /closing|closed/i.test(error.message))
  );
}
