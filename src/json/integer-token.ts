/** Digits of `Number.MAX_SAFE_INTEGER`: a 16-digit integer above these is unsafe. */
const MAX_SAFE_DIGITS = '9007199254740991';

/** The fewest digits an unsafe integer has. */
export const MIN_UNSAFE_DIGITS = MAX_SAFE_DIGITS.length;

const MINUS = 45;

/** True when the digits `[start, end)` (no leading zero) exceed `Number.MAX_SAFE_INTEGER`. */
export function isUnsafeDigitRun(text: string, start: number, end: number): boolean {
  const digits = end - start;
  if (digits !== MIN_UNSAFE_DIGITS) return digits > MIN_UNSAFE_DIGITS;
  // Same length: compare digit by digit (no slice: ids of 2024-25 have 16 digits).
  for (let i = 0; i < MIN_UNSAFE_DIGITS; i++) {
    const difference = text.charCodeAt(start + i) - MAX_SAFE_DIGITS.charCodeAt(i);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/**
 * Where the integer token whose digits are `[start, end)` begins when it is a value of its own:
 * at its `-` sign or first digit, which must be the text's start or follow `[`, `,`, `:` or
 * whitespace. `-1` when the digits cannot be a value of their own: they follow another
 * character, or they are not followed (after optional whitespace) by `,`, `]`, `}` or the end.
 * Every unsafe integer token outside strings of a valid text passes; a run that passes may
 * still sit inside a string.
 */
export function valueTokenStart(text: string, start: number, end: number): number {
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

/** JSON's four whitespace characters. */
export function isWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** `0`-`9`. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
