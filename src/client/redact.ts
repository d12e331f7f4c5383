/**
 * Keeps the API token out of everything an error carries. The client builds its own errors from
 * method, path and status only; these helpers cover what comes from outside: response bodies
 * (a server may echo a header back) and low-level causes (fetch errors).
 */

const REDACTED = '[redacted]';

/** Replaces every occurrence of `secret` in `text`. */
export function redact(text: string, secret: string): string {
  return secret !== '' && text.includes(secret) ? text.split(secret).join(REDACTED) : text;
}

/**
 * A copy of an error that is safe to keep as `cause`: name, message, `code` and its own cause chain
 * (to a small depth), with the token redacted. Nothing else is kept: fetch errors may hold sockets,
 * requests or headers.
 */
export function safeCause(error: unknown, secret: string, depth = 4): Error | undefined {
  if (depth <= 0 || error === undefined || error === null) return undefined;
  const source = error instanceof Error ? error : undefined;
  const message = redact(source ? source.message : String(error), secret);
  const nested = source && 'cause' in source ? safeCause(source.cause, secret, depth - 1) : undefined;
  const copy = nested === undefined ? new Error(message) : new Error(message, { cause: nested });
  copy.name = source ? source.name : 'Error';
  const code = source && (source as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  // The stack of the copy points here; keep the original frames, redacted, for debugging.
  if (source?.stack !== undefined) copy.stack = redact(source.stack, secret);
  return copy;
}
