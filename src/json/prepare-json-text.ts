/** Digits of `Number.MAX_SAFE_INTEGER`: a 16-digit integer above these is unsafe. */
const MAX_SAFE_DIGITS = '9007199254740991';
const MIN_UNSAFE_LENGTH = MAX_SAFE_DIGITS.length;

const BACKSLASH = 92;
const MINUS = 45;

/** What {@link prepareJsonText} made of a JSON text. */
export interface PreparedJsonText {
  /** The text with its unsafe integer tokens quoted: the input itself when there were none. */
  text: string;
  /**
   * True when a string token spelled exactly `__proto__` or `constructor` (no escapes) was seen,
   * as a key or a value. Escaped spellings are not looked for here.
   */
  literalPrototypeKey: boolean;
}

/**
 * Readies JSON text for the native parser, in one pass over its structure.
 *
 * Every integer token outside the safe range (a plain integer: no fraction, no exponent)
 * becomes a string token of the same digits: `{"id":123456789012345678901}` becomes
 * `{"id":"123456789012345678901"}`, `-12345678901234567890` becomes `"-12345678901234567890"`.
 * The native `JSON.parse` of the result then keeps those integers exact.
 *
 * Strings are skipped exactly (closing quotes found with `indexOf`, escapes by counting the
 * backslashes before them), so digits inside strings are never touched. Only the short stretches
 * between strings are scanned, and only those of 16 characters or more can hold a candidate.
 * While skipping, strings spelled `__proto__` or `constructor` are noted (a length test, then a
 * comparison), which spares the parse a separate search for them.
 *
 * Invalid text stays invalid: a token is quoted only when the character before it is `[`, `,`,
 * `:`, whitespace or the start of the text, and the next one after optional whitespace is `,`,
 * `]`, `}` or the end. At a value position a string is valid exactly where a number is; at a key
 * position the quoted token is not followed by `:`; and a quote inserted inside a string (only
 * possible when the scan lost track because the text is broken) ends that string right before a
 * digit, which is never valid. So the native parser rejects the result whenever it would have
 * rejected the input.
 */
export function prepareJsonText(text: string): PreparedJsonText {
  const length = text.length;
  let out = '';
  let copied = 0;
  let from = 0;
  let literalPrototypeKey = false;
  while (from < length) {
    const quote = text.indexOf('"', from);
    const to = quote < 0 ? length : quote;
    if (to - from >= MIN_UNSAFE_LENGTH) {
      for (let start = from; start < to; start++) {
        let c = text.charCodeAt(start);
        if (c < 49 || c > 57) continue; // a token of interest starts with 1-9
        let end = start + 1;
        while (end < to && (c = text.charCodeAt(end)) >= 48 && c <= 57) end++;
        if (end - start >= MIN_UNSAFE_LENGTH) {
          const tokenStart = start > 0 && text.charCodeAt(start - 1) === MINUS ? start - 1 : start;
          if (isUnsafe(text, start, end) && isTokenBoundaryBefore(text, tokenStart) && isValueEndAfter(text, end)) {
            out += text.slice(copied, tokenStart) + '"' + text.slice(tokenStart, end) + '"';
            copied = end;
          }
        }
        start = end;
      }
    }
    if (quote < 0) break;
    const close = closingQuote(text, quote);
    const size = close - quote - 1;
    if ((size === 9 || size === 11) && !literalPrototypeKey) {
      literalPrototypeKey = text.startsWith('__proto__"', quote + 1) || text.startsWith('constructor"', quote + 1);
    }
    from = close + 1;
  }
  return { text: copied === 0 ? text : out + text.slice(copied), literalPrototypeKey };
}

/** True when the digits `[start, end)` (no leading zero) exceed `Number.MAX_SAFE_INTEGER`. */
function isUnsafe(text: string, start: number, end: number): boolean {
  const digits = end - start;
  if (digits !== MIN_UNSAFE_LENGTH) return digits > MIN_UNSAFE_LENGTH;
  // Same length: compare digit by digit (no slice: ids of 2024-25 have 16 digits).
  for (let i = 0; i < MIN_UNSAFE_LENGTH; i++) {
    const difference = text.charCodeAt(start + i) - MAX_SAFE_DIGITS.charCodeAt(i);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/** A number token may start at `at`: it is the text's start or follows `[`, `,`, `:` or whitespace. */
function isTokenBoundaryBefore(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  return c === 58 || c === 44 || c === 91 || isWhitespace(c);
}

/** After optional whitespace from `at` comes `,`, `]`, `}` or the end of the text. */
function isValueEndAfter(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  if (i === text.length) return true;
  const c = text.charCodeAt(i);
  return c === 44 || c === 93 || c === 125;
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * Index of the quote that closes the string opened at `open`: the next quote preceded by an
 * even number of backslashes. The text's length when the string is never closed.
 */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let before = at - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((at - 1 - before) % 2 === 0) return at;
  }
}
