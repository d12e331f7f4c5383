/** Digits of `Number.MAX_SAFE_INTEGER`: a 16-digit integer above these is unsafe. */
export const MAX_SAFE_DIGITS = '9007199254740991';

/** The fewest digits an unsafe integer has. */
export const MIN_UNSAFE_DIGITS = MAX_SAFE_DIGITS.length;

const MINUS = 45;

/**
 * Where the unsafe integer token made of the maximal digit run `[start, end)` begins, when that
 * run can be one: at its `-` sign or first digit. `-1` when it cannot, because the run
 * - has a leading zero or does not exceed `Number.MAX_SAFE_INTEGER` (fewer than 16 digits never do),
 * - follows something other than `[`, `,`, `:`, whitespace or the start of the text, or
 * - is not followed (after optional whitespace) by `,`, `]`, `}` or the end.
 *
 * Every unsafe integer token outside strings of a valid text passes; a run that passes may still
 * sit inside a string.
 */
export function unsafeIntegerTokenStart(text: string, start: number, end: number): number {
  if (text.charCodeAt(start) === 48 /* 0 */ || !isUnsafeDigitRun(text, start, end)) return -1;
  const tokenStart = start > 0 && text.charCodeAt(start - 1) === MINUS ? start - 1 : start;
  if (tokenStart > 0) {
    const before = text.charCodeAt(tokenStart - 1);
    if (before !== 58 /* : */ && before !== 44 /* , */ && before !== 91 /* [ */ && !isWhitespace(before)) return -1;
  }
  let after = end;
  while (after < text.length && isWhitespace(text.charCodeAt(after))) after++;
  if (after === text.length) return tokenStart;
  const next = text.charCodeAt(after);
  return next === 44 /* , */ || next === 93 /* ] */ || next === 125 /* } */ ? tokenStart : -1;
}

/** True when the digits `[start, end)` (no leading zero) exceed `Number.MAX_SAFE_INTEGER`. */
function isUnsafeDigitRun(text: string, start: number, end: number): boolean {
  const digits = end - start;
  if (digits !== MIN_UNSAFE_DIGITS) return digits > MIN_UNSAFE_DIGITS;
  // Same length: compare digit by digit (no slice: ids of 2024-25 have 16 digits).
  for (let i = 0; i < MIN_UNSAFE_DIGITS; i++) {
    const difference = text.charCodeAt(start + i) - MAX_SAFE_DIGITS.charCodeAt(i);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/** JSON's four whitespace characters, as char codes or bytes. */
export function isWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** `0`-`9`, as a char code or a byte. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
