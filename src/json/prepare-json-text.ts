import { MIN_UNSAFE_DIGITS, isDigit, unsafeIntegerTokenStart } from './integer-token.js';

const BACKSLASH = 92;

/**
 * Quotes the unsafe integer tokens of a JSON text and nothing else, tracking strings exactly:
 * the path {@link parseJson} takes when the fast `quoteIntegerCandidates` was fooled by digits
 * inside a string.
 *
 * Every integer token outside strings beyond the safe range (a plain integer: no fraction, no
 * exponent) becomes a string token of the same digits: `{"id":123456789012345678901}` becomes
 * `{"id":"123456789012345678901"}`, `-12345678901234567890` becomes `"-12345678901234567890"`.
 * The native `JSON.parse` of the result then keeps those integers exact. Returns the input
 * itself when there is nothing to quote.
 *
 * Strings are skipped exactly (closing quotes found with `indexOf`, escapes by counting the
 * backslashes before them), so digits inside strings are never touched. Only the stretches
 * between strings are scanned, and only those of 16 characters or more can hold a candidate.
 *
 * Invalid text stays invalid: a token is quoted only where `unsafeIntegerTokenStart` allows. At a value
 * position a string is valid exactly where a number is; at a key position the quoted token is
 * not followed by `:`; and a quote inserted inside a string (only possible when the scan lost
 * track because the text is broken) ends that string right before a digit, which is never
 * valid. So the native parser rejects the result whenever it would have rejected the input.
 */
export function prepareJsonText(text: string): string {
  const length = text.length;
  let out = '';
  let copied = 0;
  let from = 0;
  while (from < length) {
    const quote = text.indexOf('"', from);
    const to = quote < 0 ? length : quote;
    if (to - from >= MIN_UNSAFE_DIGITS) {
      for (let start = from; start < to; start++) {
        const c = text.charCodeAt(start);
        if (!isDigit(c)) continue;
        let end = start + 1;
        while (end < to && isDigit(text.charCodeAt(end))) end++;
        const tokenStart = unsafeIntegerTokenStart(text, start, end);
        if (tokenStart >= 0) {
          out += text.slice(copied, tokenStart) + '"' + text.slice(tokenStart, end) + '"';
          copied = end;
        }
        start = end;
      }
    }
    if (quote < 0) break;
    from = closingQuote(text, quote) + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
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
