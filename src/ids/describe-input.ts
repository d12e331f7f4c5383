/**
 * A short, safe description of a bad input for error messages: its type and, for strings,
 * numbers and bigints, its value (long strings cut at 40 characters).
 */
export function describeInput(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return value === null ? 'null' : typeof value;
}
