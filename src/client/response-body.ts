import { JsonParseError, isJsonParseError, type RequestInfo } from '../errors/index.js';
import { parseJsonBytes } from '../json/index.js';
import { redact, safeCause } from './redact.js';

const decoder = new TextDecoder('utf-8');

/** A body decoded as UTF-8, as `Response.text()` decodes it: a BOM is dropped, invalid bytes become U+FFFD. */
export function bodyText(body: Uint8Array): string {
  return decoder.decode(body);
}

/**
 * A success body parsed strictly (unsafe integers as exact decimal strings). A body that is not
 * JSON is a `JsonParseError` naming method and path, with the token redacted from the parser's
 * message; an empty one is `undefined` where `allowEmpty`, else an error too.
 */
export function readJson(body: Uint8Array, request: RequestInfo, allowEmpty: boolean, token: string): unknown {
  const where = `${request.method} ${request.path}`;
  if (isBlank(body)) {
    if (allowEmpty) return undefined;
    throw new JsonParseError(`the response of ${where} has an empty body, expected JSON`, { position: 0, request });
  }
  try {
    return parseJsonBytes(body);
  } catch (error) {
    if (!isJsonParseError(error)) throw error;
    throw new JsonParseError(`the response of ${where} is not valid JSON: ${redact(error.message, token)}`, {
      position: error.position,
      request,
      cause: safeCause(error, token),
    });
  }
}

/** True when the body holds nothing but whitespace (as `String.prototype.trim` sees it). */
function isBlank(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 32 || (byte >= 9 && byte <= 13)) continue; // space, \t \n \v \f \r
    // Past ASCII, trim() knows more whitespace (NBSP, U+2028, a BOM...): ask it.
    return byte < 0x80 ? false : bodyText(body).trim() === '';
  }
  return true;
}
