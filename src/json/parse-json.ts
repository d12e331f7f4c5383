import { JsonParseError, kindOf } from '../errors/index.js';
import { findJsonError } from './find-json-error.js';
import { prepareJsonText } from './prepare-json-text.js';
import { dropPrototypeKeys, mayHoldPrototypeKey } from './prototype-keys.js';
import { quoteIntegerCandidates } from './quote-integer-candidates.js';

/**
 * Parses JSON text strictly (RFC 8259) with integers kept exact.
 *
 * - Anything that is not valid JSON throws a {@link JsonParseError} with the `position` of the
 *   first bad character and a short reason, e.g. `invalid JSON at line 1, column 4 (position 3):
 *   unexpected ']', expected a value`. Nothing of an invalid text is returned.
 * - Integers outside the safe range (beyond ±(2^53 − 1)) come back as exact decimal strings,
 *   `{"id":123456789012345678901}` as `{ id: '123456789012345678901' }`; a negative one keeps its
 *   sign (`'-12345678901234567890'`). Safe integers are numbers, as are all numbers written with a
 *   fraction or an exponent, exactly as `JSON.parse` gives them (`1.0` is 1, `-0` is -0,
 *   `1e400` is Infinity, `12345678901234567890.5` is rounded): the exact-digit rule is for ids,
 *   which are integers.
 * - Objects never carry a `__proto__` or `constructor` key: both are dropped at any depth (see
 *   `PROTOTYPE_KEYS`), so no later `Object.assign`, spread or merge of the value can reach a
 *   prototype through them. Everything else equals what `JSON.parse` returns.
 *
 * Under the hood the native parser does the work (it is strict and fast). First a scan that reads
 * about a fifth of the text quotes the unsafe integer tokens by their neighbours alone (see
 * `quoteIntegerCandidates`). Should that have quoted digits inside a string, the native parser
 * refuses the result, and the text is quoted again with strings tracked exactly (see
 * `prepareJsonText`) before a second parse. A grammar check runs only when the text is invalid,
 * to locate the error.
 */
export function parseJson(text: string): unknown {
  const given: unknown = text;
  if (typeof given !== 'string') {
    throw new JsonParseError(`parseJson: expected the JSON text as a string, got ${kindOf(given)}`, { position: 0 });
  }
  // The reviver is slow; it runs only for texts that may hold a key to drop.
  const reviver = mayHoldPrototypeKey(text) ? dropPrototypeKeys : undefined;
  const quoted = quoteIntegerCandidates(text);
  try {
    return JSON.parse(quoted, reviver);
  } catch (cause) {
    if (quoted === text) throw toParseError(text, cause);
  }
  try {
    return JSON.parse(prepareJsonText(text), reviver);
  } catch (cause) {
    throw toParseError(text, cause);
  }
}

function toParseError(text: string, cause: unknown): JsonParseError {
  const site = findJsonError(text);
  if (site === undefined) {
    // Grammatically valid, yet refused by the engine (e.g. out of memory): say so as it said it.
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new JsonParseError(`JSON text could not be parsed: ${reason}`, { position: 0, cause });
  }
  const { line, column } = lineAndColumn(text, site.position);
  return new JsonParseError(`invalid JSON at line ${line}, column ${column} (position ${site.position}): ${site.reason}`, {
    position: site.position,
    cause,
  });
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < position; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: position - lineStart + 1 };
}
