/** Short description of a value for messages: its type, and the value itself when it is small. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'boolean':
      return `boolean ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
