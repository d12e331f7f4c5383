import { MIN_UNSAFE_DIGITS, isDigit, unsafeIntegerTokenStart } from './integer-token.js';

/**
 * Quotes every digit run that looks like an unsafe integer value by its neighbours alone, without
 * tracking where strings are: the fast first try of {@link parseJson}.
 *
 * A run qualifies when `unsafeIntegerTokenStart` accepts it: no leading zero, above
 * `Number.MAX_SAFE_INTEGER`, after `[`, `,`, `:`, whitespace or the start, and before `,`, `]`,
 * `}` or the end. It becomes a string token with its sign:
 * `{"id":123456789012345678901}` becomes `{"id":"123456789012345678901"}`.
 *
 * Why that is exact even though strings are not tracked:
 * - Every unsafe integer token outside strings qualifies, so none is missed.
 * - A qualifying run inside a string gets a quote inserted before it, right after `[`, `,`, `:`
 *   or whitespace, so that quote is not escaped and ends the string, and a digit or `-` follows
 *   it. Nothing may follow a string token but whitespace, `:`, `,`, `]` or `}`: the result is
 *   invalid, the native parser throws, and the caller takes the exact path (`prepareJsonText`).
 * - So when the native parser accepts the result, every inserted pair encloses a whole number
 *   token of the input at a value position (not a key: `:` never follows it), and the input
 *   was valid with the same structure.
 *
 * Finding the runs reads only a fraction of the text: a run of 16 or more digits covers one of
 * every 16 positions, so the scan looks at every 16th character and reads a run only where one
 * of those is a digit.
 */
export function quoteIntegerCandidates(text: string): string {
  const length = text.length;
  let out = '';
  let copied = 0;
  let probe = MIN_UNSAFE_DIGITS - 1;
  while (probe < length) {
    if (!isDigit(text.charCodeAt(probe))) {
      probe += MIN_UNSAFE_DIGITS;
      continue;
    }
    let start = probe;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < length && isDigit(text.charCodeAt(end))) end++;
    const tokenStart = unsafeIntegerTokenStart(text, start, end);
    if (tokenStart >= 0) {
      out += text.slice(copied, tokenStart) + '"' + text.slice(tokenStart, end) + '"';
      copied = end;
    }
    // The character at `end` is not a digit, so the next run starts after it.
    probe = end + MIN_UNSAFE_DIGITS;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
