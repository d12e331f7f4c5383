import { MAX_SAFE_DIGITS, MIN_UNSAFE_DIGITS, isDigit, isWhitespace } from './integer-token.js';

const QUOTE = 34;
const MINUS = 45;

/**
 * `quoteIntegerCandidates` for UTF-8 bytes: quotes every digit run that looks like an unsafe
 * integer value by its neighbours alone, reading about a fifth of the bytes, and returns new bytes
 * (or `bytes` itself when there was nothing to quote).
 *
 * It follows the string version rule for rule, so the same argument makes it exact: every unsafe
 * integer token outside strings is quoted, and a run quoted inside a string makes the text
 * invalid. UTF-8 changes nothing there, since every byte of a multi-byte character is 0x80 or
 * above and so never reads as a digit, a sign, whitespace or punctuation. Kept apart from the
 * string version, not shared through an accessor, because each loop must stay monomorphic to run
 * at full speed.
 */
export function quoteIntegerCandidateBytes(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  let out: Uint8Array | undefined;
  let written = 0;
  let copied = 0;
  let probe = MIN_UNSAFE_DIGITS - 1;
  while (probe < length) {
    if (!isDigit(bytes[probe]!)) {
      probe += MIN_UNSAFE_DIGITS;
      continue;
    }
    let start = probe;
    while (start > 0 && isDigit(bytes[start - 1]!)) start--;
    let end = probe + 1;
    while (end < length && isDigit(bytes[end]!)) end++;
    const tokenStart = unsafeIntegerTokenStart(bytes, start, end);
    if (tokenStart >= 0) {
      // At most one token per 17 bytes (16 digits and a separator), so an eighth more room is enough.
      out ??= new Uint8Array(length + (length >> 3) + 2);
      out.set(bytes.subarray(copied, tokenStart), written);
      written += tokenStart - copied;
      out[written++] = QUOTE;
      for (let i = tokenStart; i < end; i++) out[written++] = bytes[i]!;
      out[written++] = QUOTE;
      copied = end;
    }
    probe = end + MIN_UNSAFE_DIGITS;
  }
  if (out === undefined) return bytes;
  out.set(bytes.subarray(copied), written);
  return out.subarray(0, written + length - copied);
}

/** Byte twin of `unsafeIntegerTokenStart` in `integer-token.ts`: the token's first byte, or -1. */
function unsafeIntegerTokenStart(bytes: Uint8Array, start: number, end: number): number {
  if (bytes[start] === 48 /* 0 */ || !isUnsafeDigitRun(bytes, start, end)) return -1;
  const tokenStart = start > 0 && bytes[start - 1] === MINUS ? start - 1 : start;
  if (tokenStart > 0) {
    const before = bytes[tokenStart - 1]!;
    if (before !== 58 /* : */ && before !== 44 /* , */ && before !== 91 /* [ */ && !isWhitespace(before)) return -1;
  }
  let after = end;
  while (after < bytes.length && isWhitespace(bytes[after]!)) after++;
  if (after === bytes.length) return tokenStart;
  const next = bytes[after];
  return next === 44 /* , */ || next === 93 /* ] */ || next === 125 /* } */ ? tokenStart : -1;
}

function isUnsafeDigitRun(bytes: Uint8Array, start: number, end: number): boolean {
  const digits = end - start;
  if (digits !== MIN_UNSAFE_DIGITS) return digits > MIN_UNSAFE_DIGITS;
  for (let i = 0; i < MIN_UNSAFE_DIGITS; i++) {
    const difference = bytes[start + i]! - MAX_SAFE_DIGITS.charCodeAt(i);
    if (difference !== 0) return difference > 0;
  }
  return false;
}
