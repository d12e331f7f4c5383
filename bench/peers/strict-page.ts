/**
 * One page of a collection fetched the plain way and read exactly as this package reads it: the
 * strict JSON parser (big ids exact) and the collection's strict read face. The naive loop, the
 * RxDB pull handler and the bare `bulkPut`'s preparation share it, so they differ from the mirror
 * only in what they do around it. Not a benchmark itself.
 */
import { rawId } from '../../src/client/raw-page.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import type { Id } from '../../src/ids/id.js';
import { parseJsonBytes } from '../../src/json/index.js';
import type { CollectionName } from '../../src/schema/collections.js';
import { schemas } from '../../src/schema/schemas.js';
import type { Server } from './job.js';

/** Which page: forward by id from `idStart` (exclusive), records with `_v >= versionStart`. */
export interface PageQuery {
  versionStart: number;
  idStart: Id | undefined;
  limit: number;
}

/** The records of one page that the read face accepted, and where the next page starts. */
export interface StrictPage {
  records: StoredRecord[];
  /** Records the server sent, refused ones included. */
  rawCount: number;
  /** Records the read face refused. */
  refused: number;
  /** Id of the page's last raw record: the next page's `id_start`. */
  cursor: Id | undefined;
  /** Fewer records than `limit`: the traversal ends here. */
  done: boolean;
}

/** `GET <collection>?limit&direction=forward&version_start[&id_start]`, parsed and read. */
export async function fetchStrictPage(server: Server, collection: CollectionName, query: PageQuery): Promise<StrictPage> {
  const params = new URLSearchParams({ limit: String(query.limit), direction: 'forward', version_start: String(query.versionStart) });
  if (query.idStart !== undefined) params.set('id_start', query.idStart);
  const response = await fetch(`${server.baseUrl}/${collection}?${params}`, {
    headers: { authorization: `A|${server.token}`, accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`GET ${collection}: HTTP ${response.status}`);
  const raws = parseJsonBytes(new Uint8Array(await response.arrayBuffer()));
  if (!Array.isArray(raws)) throw new Error(`GET ${collection}: the body is not an array`);
  const read = schemas[collection].read;
  const records: StoredRecord[] = [];
  let refused = 0;
  for (const raw of raws) {
    const result = read.safeParse(raw);
    if (result.success) records.push(result.data as StoredRecord);
    else refused++;
  }
  return { records, rawCount: raws.length, refused, cursor: rawId(raws.at(-1)), done: raws.length < query.limit };
}

/** Every page of `collection` from the start, in order. */
export async function* allStrictPages(server: Server, collection: CollectionName, limit: number): AsyncGenerator<StrictPage> {
  let idStart: Id | undefined;
  for (;;) {
    const page = await fetchStrictPage(server, collection, { versionStart: 0, idStart, limit });
    yield page;
    if (page.done) return;
    idStart = page.cursor;
  }
}
