import { ValidationError } from '../errors/index.js';

/**
 * The start of an id field's value, in the compact output of `JSON.stringify`: the key `id`, or
 * `id_` and ASCII letters, digits or underscores (`id_c`, `id_shop`, ...), right after `{` or `,`
 * (so it is a key: inside strings every quote is escaped), then `:` and the opening quote of a
 * string that holds only digits without a leading zero. A match ends right after that quote.
 */
const ID_VALUE_START = /[{,]"id(?:_[A-Za-z0-9_]*)?":"(?=(?:0|[1-9][0-9]*)")/g;

/**
 * Serializes like `JSON.stringify(value)` (compact, `toJSON` honoured, `undefined` and functions
 * dropped from objects), with two differences for the wire:
 *
 * - bigint values go out as bare integers (`{ n: 12n }` → `{"n":12}`) instead of throwing;
 * - in every object, at any depth, an id field (`id`, `id_c` and every `id_*` key) whose value
 *   is a canonical id string (digits, no leading zero) goes out as a bare integer:
 *   `{ id: '123456789012345678901' }` → `{"id":123456789012345678901}`. The library carries ids
 *   as strings, the service wants integers. Other strings stay strings (`"barcode":"0012"`), as
 *   do id fields whose value is not a canonical id (`"id_shop":"0012"`, `"id":"abc"`).
 *
 * Throws a `ValidationError` when the value has no JSON text (`undefined`, a function, a symbol)
 * or cannot be serialized (a circular structure); the engine's error is kept as `cause`.
 *
 * Speed: the native serializer does the work and one native regex search finds the ids to
 * unquote; values with bigints take a slower path (a replacer), which the library itself never needs.
 */
export function stringifyJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (!isBigIntError(error)) throw serializeError(error);
    text = stringifyWithBigInts(value);
  }
  if (text === undefined) {
    const message = `${typeof value} has no JSON text`;
    throw new ValidationError(`stringifyJson: ${message}`, { issues: [{ path: [], message }] });
  }
  return unquoteIdValues(text);
}

/**
 * Drops the quotes around the values that {@link ID_VALUE_START} finds. The regex only finds
 * (no captures, no replacement strings: those cost more than the search); the pieces between
 * are sliced and joined as one rope.
 */
function unquoteIdValues(text: string): string {
  let out = '';
  let copied = 0;
  ID_VALUE_START.lastIndex = 0;
  while (ID_VALUE_START.test(text)) {
    const open = ID_VALUE_START.lastIndex - 1;
    const close = text.indexOf('"', open + 1); // the value is digits only: the next quote ends it
    out += text.slice(copied, open) + text.slice(open + 1, close);
    copied = close + 1;
    ID_VALUE_START.lastIndex = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * `JSON.stringify` with a replacer that turns each bigint into a tagged string, then unquotes
 * the tagged strings. The tag is random; should a string of the value hold the tag too, the
 * counts differ and another tag is drawn.
 */
function stringifyWithBigInts(value: unknown): string | undefined {
  for (;;) {
    const tag = `\u0000bigint-${Math.random().toString(36).slice(2)}\u0000`;
    let tagged = 0;
    let text: string | undefined;
    try {
      text = JSON.stringify(value, (_key, item: unknown) => {
        const big = typeof item === 'bigint' ? item : isBoxedBigInt(item) ? item.valueOf() : undefined;
        if (big === undefined) return item;
        tagged++;
        return tag + big.toString();
        // Undefined for a value JSON has no text for (undefined, a function), whatever the declared type says.
      });
    } catch (error) {
      throw serializeError(error);
    }
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- see above
    if (text === undefined || tagged === 0) return text;
    // The tag as it reads inside JSON text (its NUL characters escaped as \u0000).
    const pattern = new RegExp(`"${escapeRegExp(JSON.stringify(tag).slice(1, -1))}(-?[0-9]+)"`, 'g');
    let found = 0;
    const out = text.replace(pattern, (_match, digits: string) => {
      found++;
      return digits;
    });
    if (found === tagged) return out;
  }
}

function isBigIntError(error: unknown): boolean {
  return error instanceof TypeError && /BigInt/i.test(error.message);
}

function isBoxedBigInt(item: unknown): item is { valueOf(): bigint } {
  return typeof item === 'object' && item !== null && Object.prototype.toString.call(item) === '[object BigInt]';
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof TypeError)) return error;
  const message = `cannot serialize the value: ${error.message.split('\n')[0] ?? ''}`;
  return new ValidationError(`stringifyJson: ${message}`, { issues: [{ path: [], message }], cause: error });
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
