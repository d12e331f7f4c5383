/**
 * True for a value shaped as an error (an object with a string `name` and `message`), whatever
 * realm made it. `instanceof Error` or `instanceof DOMException` is not enough for IndexedDB's
 * errors: once the database was opened again on a fresh frame's IndexedDB (`reopen.ts`), the
 * engine's errors are that frame's, instances of its own `Error` and `DOMException`.
 */
export function isErrorLike(value: unknown): value is { name: string; message: string } {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string' && typeof (value as { message?: unknown }).message === 'string';
}

/** True for a `DOMException` of any realm (see {@link isErrorLike}): IndexedDB's own errors. */
export function isDomException(value: unknown): boolean {
  return isErrorLike(value) && Object.prototype.toString.call(value) === '[object DOMException]';
}
