import { formatIssues, isHttpError, type ValidationIssue } from '../../errors/index.js';

/** Records of a batch the server refused, by their index in the batch, with its reason for each. */
export type RecordRejections = Map<number, string>;

/**
 * True when an error is the server refusing a POST body as bad data (400 Bad Request, 422
 * Unprocessable Entity), not a failure to retry later: sent again unchanged, it would be refused
 * again, for ever, holding back every entry behind it.
 */
export function isRejection(error: unknown): boolean {
  return isHttpError(error) && (error.status === 400 || error.status === 422);
}

/**
 * True when an error is the server refusing a POST body as too large (413 Payload Too Large): it
 * applied none of it, and smaller batches may go through.
 */
export function isTooLarge(error: unknown): boolean {
  return isHttpError(error) && error.status === 413;
}

/** The reason a record the server refused as too large on its own (413) is rejected with. */
export function tooLargeReason(error: unknown, bytes: number): string {
  const said = isHttpError(error) && error.body !== undefined ? `: ${rejectionReason(error)}` : '';
  return `too large for the service (${bytes} bytes of JSON; a POST of this record alone was answered 413 Payload Too Large${said})`;
}

/**
 * Reads which records of a refused batch were bad from the 400 (or 422) body, when the body says so.
 * The spec does not describe the body of a refused POST; the simulator answers
 * `{ error: 'validation', records: [{ index, issues: [{ path, message }] }] }`, and other shapes
 * (`records[i].message`, `records[i].error`, `errors: [...]`) are read the same way. Returns
 * `undefined` when the body names no record of the batch: then nobody knows which were bad, and
 * the batch is bisected.
 */
export function readRejections(body: unknown, batchSize: number): RecordRejections | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const list = (body as { records?: unknown; errors?: unknown }).records ?? (body as { errors?: unknown }).errors;
  if (!Array.isArray(list)) return undefined;
  const out: RecordRejections = new Map();
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const index = (item as { index?: unknown }).index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= batchSize) continue;
    out.set(index, describeReason(item as object));
  }
  return out.size > 0 ? out : undefined;
}

/** The server's reason for a whole refused request (a batch of one, or a body that names no record). */
export function rejectionReason(error: unknown): string {
  if (isHttpError(error)) {
    const body = error.body;
    if (typeof body === 'object' && body !== null) {
      const fromRecords = readRejections(body, Number.MAX_SAFE_INTEGER);
      if (fromRecords && fromRecords.size > 0) return [...fromRecords.values()].join('; ');
      return describeReason(body);
    }
    if (typeof body === 'string' && body.trim() !== '') return shorten(body.trim());
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function describeReason(item: object): string {
  const { issues, message, error } = item as { issues?: unknown; message?: unknown; error?: unknown };
  if (Array.isArray(issues) && issues.length > 0) {
    if (issues.every(isIssue)) return formatIssues(issues, { max: 10 });
    return shorten(JSON.stringify(issues));
  }
  if (typeof message === 'string' && message !== '') return shorten(message);
  if (typeof error === 'string' && error !== '') return shorten(error);
  return shorten(JSON.stringify(item));
}

function isIssue(value: unknown): value is ValidationIssue {
  if (typeof value !== 'object' || value === null) return false;
  const { path, message } = value as { path?: unknown; message?: unknown };
  return Array.isArray(path) && typeof message === 'string';
}

function shorten(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
