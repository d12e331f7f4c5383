import { isDigit, isWhitespace } from './integer-token.js';

/** Where JSON text stops being valid, and why. */
export interface JsonErrorSite {
  /** Character offset of the first character that cannot continue valid JSON (or the length, at an early end). */
  position: number;
  /** What is wrong there, in a few words. */
  reason: string;
}

/** Kinds of open containers on the stack. */
const ARRAY = 0;
const OBJECT = 1;

/**
 * Checks `text` against the JSON grammar of RFC 8259 and returns the first place where it fails,
 * or `undefined` when it is valid. Used after the native parser refused a text, to report a
 * position in the caller's own text and a reason (the native messages vary by engine and do not
 * always carry a position). Iterative, so deep nesting cannot overflow the stack; linear time.
 */
export function findJsonError(text: string): JsonErrorSite | undefined {
  const length = text.length;
  const stack: number[] = [];
  let i = skipWhitespace(text, 0);

  for (;;) {
    // A value starts at i.
    if (i >= length) return endOfText(length, 'a value');
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) {
      i = skipWhitespace(text, i + 1);
      if (text.charCodeAt(i) === 125 /* } */) {
        i++;
      } else {
        stack.push(OBJECT);
        const afterKey = key(text, i);
        if (typeof afterKey !== 'number') return afterKey;
        i = afterKey;
        continue;
      }
    } else if (c === 91 /* [ */) {
      i = skipWhitespace(text, i + 1);
      if (text.charCodeAt(i) === 93 /* ] */) {
        i++;
      } else {
        stack.push(ARRAY);
        continue;
      }
    } else {
      const end = c === 34 ? string(text, i) : c === 45 || (c >= 48 && c <= 57) ? number(text, i) : literal(text, i);
      if (typeof end !== 'number') return end;
      i = end;
    }

    // A value ended at i: close containers until one continues with `,`.
    for (;;) {
      i = skipWhitespace(text, i);
      const top = stack[stack.length - 1];
      if (top === undefined) return i < length ? unexpected(text, i, 'the end of the text after the JSON value') : undefined;
      const close = top === ARRAY ? 93 : 125;
      const expected = top === ARRAY ? "',' or ']' after an array element" : "',' or '}' after a property value";
      if (i >= length) return endOfText(length, expected);
      const next = text.charCodeAt(i);
      if (next === close) {
        stack.pop();
        i++;
        continue;
      }
      if (next !== 44 /* , */) return unexpected(text, i, expected);
      i = skipWhitespace(text, i + 1);
      if (top === OBJECT) {
        const afterKey = key(text, i);
        if (typeof afterKey !== 'number') return afterKey;
        i = afterKey;
      }
      break;
    }
  }
}

/** A property name, whitespace and `:` from `i`; returns where its value starts. */
function key(text: string, i: number): number | JsonErrorSite {
  if (i >= text.length) return endOfText(text.length, 'a property name in double quotes');
  if (text.charCodeAt(i) !== 34) return unexpected(text, i, 'a property name in double quotes');
  const end = string(text, i);
  if (typeof end !== 'number') return end;
  const colon = skipWhitespace(text, end);
  if (colon >= text.length) return endOfText(text.length, "':' after a property name");
  if (text.charCodeAt(colon) !== 58) return unexpected(text, colon, "':' after a property name");
  return skipWhitespace(text, colon + 1);
}

/** A string token opening at `i`; returns the index after its closing quote. */
function string(text: string, open: number): number | JsonErrorSite {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c < 0x20) return { position: i, reason: `unescaped control character ${codePoint(c)} in a string` };
    if (c !== 92) continue;
    const escape = text.charCodeAt(i + 1);
    if (escape === 117 /* u */) {
      for (let h = i + 2; h < i + 6; h++) {
        if (!isHexDigit(text.charCodeAt(h))) {
          return h >= text.length ? endOfText(text.length, 'four hex digits after \\u') : unexpected(text, h, 'a hex digit in a \\u escape');
        }
      }
      i += 5;
    } else if (isShortEscape(escape)) {
      i++;
    } else {
      if (i + 1 >= text.length) return endOfText(text.length, 'an escape after \\');
      return { position: i, reason: `invalid escape: ${show(text, i + 1)} after a backslash in a string` };
    }
  }
  return { position: text.length, reason: 'unterminated string' };
}

/** A number token starting at `i`; returns the index after it. */
function number(text: string, start: number): number | JsonErrorSite {
  let i = start;
  if (text.charCodeAt(i) === 45) i++;
  const first = text.charCodeAt(i);
  if (first === 48) {
    i++;
    if (isDigit(text.charCodeAt(i))) return { position: i, reason: 'a number must not have a leading zero' };
  } else if (isDigit(first)) {
    while (isDigit(text.charCodeAt(i))) i++;
  } else {
    return i >= text.length ? endOfText(text.length, "a digit after '-'") : unexpected(text, i, "a digit after '-'");
  }
  if (text.charCodeAt(i) === 46 /* . */) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return i >= text.length ? endOfText(text.length, "a digit after '.'") : unexpected(text, i, "a digit after '.'");
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 43 || sign === 45) i++;
    if (!isDigit(text.charCodeAt(i))) return i >= text.length ? endOfText(text.length, 'a digit in the exponent') : unexpected(text, i, 'a digit in the exponent');
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** `true`, `false` or `null` at `i`; returns the index after it. */
function literal(text: string, start: number): number | JsonErrorSite {
  const word = text.charCodeAt(start) === 116 ? 'true' : text.charCodeAt(start) === 102 ? 'false' : text.charCodeAt(start) === 110 ? 'null' : '';
  if (word === '') return unexpected(text, start, 'a value');
  for (let k = 1; k < word.length; k++) {
    const at = start + k;
    if (at >= text.length) return endOfText(text.length, `'${word}'`);
    if (text.charCodeAt(at) !== word.charCodeAt(k)) return unexpected(text, at, `'${word}'`);
  }
  return start + word.length;
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

function unexpected(text: string, at: number, expected: string): JsonErrorSite {
  return { position: at, reason: `unexpected ${show(text, at)}, expected ${expected}` };
}

function endOfText(length: number, expected: string): JsonErrorSite {
  return { position: length, reason: `unexpected end of text, expected ${expected}` };
}

/** A character for a message: quoted when printable ASCII, else its code point. */
function show(text: string, at: number): string {
  const c = text.codePointAt(at) ?? 0;
  return c > 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : codePoint(c);
}

function codePoint(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`. */
function isShortEscape(c: number): boolean {
  return c === 34 || c === 92 || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116;
}
