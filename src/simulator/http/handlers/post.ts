/**
 * `POST {base}/<collection>`: one record object or a JSON array of them. Each is validated with
 * the collection's write schema (and must carry `_t`); a batch is all-or-nothing: one invalid
 * record and nothing is written, the 400 names every bad record by index and its fields:
 * `{ "error": "validation", "message", "records": [{ "index", "issues": [{ "path", "message" }] }] }`.
 * Id 0 or missing creates with a generated id, an unknown id creates with that id, a known id
 * replaces the record (full upsert). The answer follows the `postResponse` switch.
 */
import { formatIssues, type ValidationIssue } from '../../../errors/index.js';
import type { CollectionName } from '../../../schema/collections.js';
import { prepareWrite, type PreparedWrite } from '../../store/prepare-write.js';
import type { Handler } from '../handler.js';
import { errorReply, type Reply } from '../respond.js';
import { idsToWire, toWire } from '../wire.js';
import { readJsonBody } from './json-body.js';

/** The POST handler of one collection. */
export function postHandler(collection: CollectionName): Handler {
  return (ctx, req) => {
    const parsed = readJsonBody(req, `POST ${collection}`);
    if (!('value' in parsed)) return parsed;
    const many = Array.isArray(parsed.value);
    const items: unknown[] = many ? (parsed.value as unknown[]) : [parsed.value];
    const now = ctx.store.now();
    const ready: PreparedWrite[] = [];
    const failures: { index: number; issues: ValidationIssue[] }[] = [];
    items.forEach((item, index) => {
      const result = prepareWrite(collection, item, now);
      if (result.ok) ready.push(result.write);
      else failures.push({ index, issues: result.issues });
    });
    if (failures.length > 0) {
      const first = failures
        .slice(0, 3)
        .map((f) => `record ${f.index}: ${formatIssues(f.issues)}`)
        .join(' | ');
      return errorReply(400, 'validation', `POST ${collection}: ${failures.length} of ${items.length} record(s) invalid, nothing was written. ${first}`, { records: failures });
    }
    const committed = ready.map((write) => ctx.store.commit(write));
    const ids = committed.map((c) => c.record.id as string);
    const reply: Reply = { status: 200, body: '', written: { collection, ids, created: committed.filter((c) => c.created).map((c) => c.record.id as string) } };
    switch (ctx.switches.postResponse) {
      case 'records': {
        const records = committed.map((c) => c.record);
        reply.body = toWire(many ? records : records[0], ctx.switches, collection);
        break;
      }
      case 'ids':
        reply.body = many ? idsToWire(ids, ctx.switches) : toWire({ id: ids[0] }, ctx.switches, collection);
        break;
      case 'empty':
        break;
    }
    return reply;
  };
}
