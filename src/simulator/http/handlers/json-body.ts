/** Reading a POST body: JSON content type required (spec), strict JSON (400 with the position when not). */
import { isJsonParseError } from '../../../errors/index.js';
import { parseJson } from '../../../json/index.js';
import type { RouteRequest } from '../handler.js';
import { errorReply, type Reply } from '../respond.js';

/** The parsed body, or the 415/400 reply that refuses it. `what` names the endpoint in messages. */
export function readJsonBody(req: RouteRequest, what: string): { value: unknown } | Reply {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return errorReply(415, 'unsupported_media_type', `${what}: Content-Type must be application/json, got ${JSON.stringify(type.slice(0, 60))}`);
  }
  try {
    return { value: parseJson(req.body.toString('utf8')) };
  } catch (error) {
    if (!isJsonParseError(error)) throw error;
    return errorReply(400, 'invalid_json', `${what}: the body is not valid JSON (${error.message})`, { position: error.position });
  }
}
