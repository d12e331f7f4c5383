/** Digits of `Number.MAX_SAFE_INTEGER`: a 16-digit integer above these is unsafe. */
const MAX_SAFE_DIGITS = '9007199254740991';
const MIN_UNSAFE_LENGTH = MAX_SAFE_DIGITS.length;

const BACKSLASH = 92;
const MINUS = 45;

/**
 * Rewrites JSON text so that every integer token outside the safe range (a plain integer:
 * no fraction, no exponent) becomes a string token of the same digits: `{"id":123456789012345678901}`
 * becomes `{"id":"123456789012345678901"}`, `-12345678901234567890` becomes `"-12345678901234567890"`.
 * The native `JSON.parse` of the result then keeps those integers exact.
 *
 * Strings are skipped exactly (closing quotes found with `indexOf`, escapes by counting the
 * backslashes before them), so digits inside strings are never touched. Only the short stretches
 * between strings are scanned, and only those of 16 characters or more can hold a candidate.
 *
 * Invalid text stays invalid: a token is quoted only when the character before it is `[`, `,`,
 * `:`, whitespace or the start of the text, and the next one after optional whitespace is `,`,
 * `]`, `}` or the end. At a value position a string is valid exactly where a number is; at a key
 * position the quoted token is not followed by `:`; and a quote inserted inside a string (only
 * possible when the scan lost track because the text is broken) ends that string right before a
 * digit, which is never valid. So the native parser rejects the result whenever it would have
 * rejected the input. Returns `text` itself when nothing needed quoting.
 */
export function quoteUnsafeIntegers(text: string): string {
  const length = text.length;
  let out = '';
  let copied = 0;
  let from = 0;
  while (from < length) {
    const quote = text.indexOf('"', from);
    const to = quote < 0 ? length : quote;
    if (to - from >= MIN_UNSAFE_LENGTH) {
      for (let start = from; start < to; start++) {
        let c = text.charCodeAt(start);
        if (c < 49 || c > 57) continue; // a token of interest starts with 1-9
        let end = start + 1;
        while (end < to && (c = text.charCodeAt(end)) >= 48 && c <= 57) end++;
        if (end - start >= MIN_UNSAFE_LENGTH && isUnsafe(text, start, end)) {
          const tokenStart = start > 0 && text.charCodeAt(start - 1) === MINUS ? start - 1 : start;
          if (isTokenBoundaryBefore(text, tokenStart) && isValueEndAfter(text, end)) {
            out += text.slice(copied, tokenStart) + '"' + text.slice(tokenStart, end) + '"';
            copied = end;
          }
        }
        start = end;
      }
    }
    if (quote < 0) break;
    from = closingQuote(text, quote) + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** True when the digits `[start, end)` (no leading zero) exceed `Number.MAX_SAFE_INTEGER`. */
function isUnsafe(text: string, start: number, end: number): boolean {
  const digits = end - start;
  return digits > MIN_UNSAFE_LENGTH || text.slice(start, end) > MAX_SAFE_DIGITS;
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
