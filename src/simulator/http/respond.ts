/** Answers of the simulator's handlers and the JSON error bodies it uses. */

/** What a handler answers. */
export interface Reply {
  status: number;
  /** JSON text (or empty); a Buffer when the handler already encoded it (UTF-8). */
  body: string | Buffer;
  headers?: Record<string, string>;
  /** Records a POST stored: collection, ids in body order, and which of them were creates. */
  written?: { collection: string; ids: string[]; created: string[] };
}

/** Error codes of the simulator's JSON error bodies `{ "error": code, "message": text, ... }`. */
export type ErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'invalid_limit'
  | 'invalid_id_start'
  | 'invalid_direction'
  | 'invalid_version_start'
  | 'invalid_id'
  | 'invalid_query'
  | 'invalid_json'
  | 'validation'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal'
  | 'response_too_large';

/** A JSON error reply. */
export function errorReply(status: number, error: ErrorCode, message: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): Reply {
  const reply: Reply = { status, body: JSON.stringify({ error, message, ...extra }) };
  if (headers) reply.headers = headers;
  return reply;
}

/** A 200 reply with JSON text (or its UTF-8 bytes). */
export function ok(body: string | Buffer): Reply {
  return { status: 200, body };
}
