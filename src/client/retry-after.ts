/**
 * Reads a `Retry-After` header (RFC 9110 §10.2.3) as a wait in ms: either delay-seconds or an
 * HTTP date. A date is measured against the response's own `Date` header when there is one, so
 * that a skewed local clock does not stretch or cancel the wait; else against `now`.
 * Returns `undefined` for a missing or unreadable value, and never a negative wait.
 */
export function parseRetryAfter(value: string | null, responseDate: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  const serverNow = responseDate === null ? Number.NaN : Date.parse(responseDate);
  return Math.max(0, at - (Number.isNaN(serverNow) ? now : serverNow));
}
