/**
 * Short description of a bad value for an error message: its type, and the value itself when it
 * is small (strings cut at 40 characters). Objects are never echoed: they may hold anything.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (typeof value === 'boolean') return `boolean ${String(value)}`;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? 'an object' : kindOf(value);
}

/**
 * The kind of a value without the value: `null`, `an array`, or its `typeof`. For a message about
 * a whole body or record, whose content is no business of an error message.
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
