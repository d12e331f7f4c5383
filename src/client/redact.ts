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
 * {@link redact} for a body that may be JSON text: also the forms a JSON encoder writes the secret
 * in, escaped (`"` as `\"`, `\` as `\\`, and `/` as `\/`, which PHP's `json_encode` does by
 * default). A parsed body is redacted value by value with {@link redactJsonValue}, which also
 * meets `\u` escapes.
 */
export function redactText(text: string, secret: string): string {
  if (secret === '') return text;
  const escaped = JSON.stringify(secret).slice(1, -1);
  let out = redact(text, secret);
  for (const form of new Set([escaped, escaped.replaceAll('/', '\\/')])) out = redact(out, form);
  return out;
}

/** Deepest nesting {@link redactJsonValue} walks; a deeper value is replaced whole. */
const MAX_DEPTH = 64;

/**
 * A parsed JSON value with `secret` redacted from every string and key. The value is returned as
 * it is when no string holds the secret; a value nested deeper than 64 levels is replaced by
 * `'[redacted: nested too deep]'` when the secret might be inside.
 */
export function redactJsonValue(value: unknown, secret: string): unknown {
  if (secret === '' || !holds(value, secret, 0)) return value;
  return rebuild(value, secret, 0);
}

function holds(value: unknown, secret: string, depth: number): boolean {
  if (typeof value === 'string') return value.includes(secret);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => holds(item, secret, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes(secret) || holds(item, secret, depth + 1));
}

function rebuild(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return redact(value, secret);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return `${REDACTED}: nested too deep`;
  if (Array.isArray(value)) return value.map((item) => rebuild(item, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redact(key, secret)] = rebuild(item, secret, depth + 1);
  return out;
}

/**
 * A copy of an error that is safe to keep as `cause`: name, message, `code` and its own cause chain
 * (to a small depth), with the token redacted. Nothing else is kept: fetch errors may hold sockets,
 * requests or headers.
 */
export function safeCause(error: unknown, secret: string, depth = 4): Error | undefined {
  if (depth <= 0 || error === undefined || error === null) return undefined;
  const source = error instanceof Error ? error : undefined;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a thrown non-Error reads as the platform writes it
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
