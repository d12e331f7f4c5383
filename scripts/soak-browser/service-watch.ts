/**
 * What the browser soak's proxies see of the traffic between the tabs and the service, in one
 * place: the versions of records the service sent (list pages, parsed as the pages parse them)
 * and every POST with what it carried and when it went out and ended. Its hooks run before a
 * request is forwarded, so the harness acts between two requests (a colliding record written on
 * the server before a pull).
 *
 * The record of versions answers one question of the checks: had any tab been sent a version of
 * a record at least as new as a back-office write before some POST carried that record? If not,
 * the POST was built without the write (the service has no conditional write) and replaced it:
 * the window no client can close, not the mirror losing it.
 */
import { tryToId } from '../../src/ids/id.js';
import { parseJson } from '../../src/json/index.js';
import { isCollectionName, type CollectionName } from '../../src/schema/collections.js';

/** One record as a POST carried it. */
export type PostedRecord = Readonly<Record<string, unknown>> & { id: string };

/** A POST seen at a proxy. */
export interface PostSeen {
  slot: number;
  collection: CollectionName;
  records: readonly PostedRecord[];
  /** When it reached the proxy (ms). */
  sentAt: number;
  /** When its answer ended, or its connection did (ms); undefined while under way. */
  endedAt: number | undefined;
}

/** A version of a record a list page held: its `_v`, when it was received, by which tab, and the record. */
export interface Version {
  v: number;
  at: number;
  slot: number;
  record: Readonly<Record<string, unknown>>;
}

/** The traffic record (see the file's comment). */
export class ServiceWatch {
  readonly posts: PostSeen[] = [];
  /** Versions sent, by `${collection}|${id}`, in the order they were received. */
  private readonly versions = new Map<string, Version[]>();
  /** Told before a GET of a collection is forwarded. */
  beforeGet: ((collection: CollectionName) => void) | undefined;
  /** Told before a POST is forwarded, with what it carries. */
  beforePost: ((post: PostSeen) => void) | undefined;

  /** Notes a list page the service answered in full (a cut-off or unparsable body taught the page nothing). */
  sawPage(slot: number, collection: CollectionName, body: string, at: number): void {
    let page: unknown;
    try {
      page = parseJson(body);
    } catch {
      return;
    }
    if (!Array.isArray(page)) return;
    for (const record of page) this.sawRecord(slot, collection, record, at);
  }

  /** Notes a POST as it reaches a proxy; returns it, for its end to be noted. */
  sawPost(slot: number, collection: CollectionName, body: string, at: number): PostSeen {
    let records: PostedRecord[] = [];
    try {
      const parsed = parseJson(body);
      const list = Array.isArray(parsed) ? parsed : [parsed];
      // Ids within the safe range parse as numbers: the checks compare them as the mirror stores them.
      for (const item of list) {
        const id = typeof item === 'object' && item !== null ? tryToId((item as { id?: unknown }).id) : undefined;
        if (id !== undefined) records.push({ ...(item as Record<string, unknown>), id });
      }
    } catch {
      // A body that is not JSON carries nothing the checks can use.
    }
    const post: PostSeen = { slot, collection, records, sentAt: at, endedAt: undefined };
    this.posts.push(post);
    this.beforePost?.(post);
    return post;
  }

  /** The highest `_v` of a record any tab was sent before `time`, or -1. */
  newestSentBefore(collection: CollectionName, id: string, time: number): number {
    let newest = -1;
    for (const { v, at } of this.versions.get(`${collection}|${id}`) ?? []) if (at < time && v > newest) newest = v;
    return newest;
  }

  /** Whether a POST that reached a proxy at or after `time` carried the record. */
  postedSince(collection: CollectionName, id: string, time: number): boolean {
    return this.posts.some((p) => p.collection === collection && p.sentAt >= time && p.records.some((r) => r.id === id));
  }

  /** Whether a POST carried the record with `field` holding `value` (compared as text: the wire may send a number either way). */
  postedValue(collection: CollectionName, id: string, field: string, value: unknown): boolean {
    return this.posts.some((p) => p.collection === collection && p.records.some((r) => String(r.id) === id && field in r && String(r[field]) === String(value)));
  }

  /** Every version of a record the service sent, in the order received, and every POST that carried it: what a trace of a violation shows. */
  trafficOf(collection: CollectionName, id: string): { versions: Version[]; posts: { slot: number; sentAt: number; endedAt: number | undefined; record: PostedRecord }[] } {
    return {
      versions: this.versions.get(`${collection}|${id}`) ?? [],
      posts: this.posts.flatMap((p) => (p.collection === collection ? p.records.filter((r) => r.id === id).map((record) => ({ slot: p.slot, sentAt: p.sentAt, endedAt: p.endedAt, record })) : [])),
    };
  }

  private sawRecord(slot: number, collection: CollectionName, record: unknown, at: number): void {
    if (typeof record !== 'object' || record === null) return;
    const { _v: v } = record as { _v?: unknown };
    const id = tryToId((record as { id?: unknown }).id);
    if (id !== undefined && typeof v === 'number') {
      const key = `${collection}|${id}`;
      const list = this.versions.get(key) ?? [];
      list.push({ v, at, slot, record: record as Record<string, unknown> });
      this.versions.set(key, list);
    }
    // Hydrations carry records of their own tables (a product's price rows), marked by `_t`.
    for (const [field, value] of Object.entries(record)) {
      if (!field.startsWith('__')) continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        const table = (child as { _t?: unknown } | null)?._t;
        if (typeof table === 'string' && isCollectionName(table)) this.sawRecord(slot, table, child, at);
      }
    }
  }
}

/** The collection a service path names (`/api/v1/customers`, `/api/v1/customers/list`), if any. */
export function collectionOfPath(path: string, basePath: string): CollectionName | undefined {
  if (!path.startsWith(`${basePath}/`)) return undefined;
  const name = path.slice(basePath.length + 1).split('/')[0] ?? '';
  return isCollectionName(name) ? name : undefined;
}
