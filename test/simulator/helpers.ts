/** Shared helpers of the simulator tests: real HTTP with fetch on 127.0.0.1, exact JSON. */
import { tryToId, type Id } from '../../src/ids/id.js';
import { parseJson } from '../../src/json/index.js';
import type { Simulator } from '../../src/simulator/index.js';

/** A response read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed with the library's strict parser (unsafe integers as exact strings), or undefined. */
  json: unknown;
}

/** Requests to a simulator with its token. */
export function api(sim: Simulator, token = sim.token) {
  const auth = { authorization: `A|${token}` };
  const read = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : parseJson(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  return {
    get: async (path: string, headers: Record<string, string> = auth): Promise<Answer> => read(await fetch(sim.baseUrl + path, { headers })),
    post: async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
      read(await fetch(sim.baseUrl + path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })),
    /** GET a list and return its records (throws unless 200). */
    list: async (path: string): Promise<Rec[]> => {
      const answer = await read(await fetch(sim.baseUrl + path, { headers: auth }));
      if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
      return answer.json as Rec[];
    },
  };
}

/** A record as parsed from the wire. */
export type Rec = Record<string, unknown>;

/** A wire id (number or exact string) in canonical form. */
export function idOf(value: unknown): Id {
  const id = tryToId(value);
  if (id === undefined) throw new Error(`not an id: ${String(value)}`);
  return id;
}

/** Ids of records, canonical. */
export function idsOf(records: readonly Rec[]): Id[] {
  return records.map((r) => idOf(r.id));
}

/** Walks every page of a list with `id_start` = last id, until a short page. */
export async function traverse(sim: Simulator, collection: string, query: string, limit: number): Promise<Rec[]> {
  const client = api(sim);
  const all: Rec[] = [];
  let idStart = '0';
  for (let pages = 0; pages < 100_000; pages++) {
    const page = await client.list(`/${collection}?limit=${limit}&id_start=${idStart}${query}`);
    all.push(...page);
    if (page.length < limit) return all;
    idStart = idOf(page[page.length - 1]?.id);
  }
  throw new Error('traversal did not end');
}
