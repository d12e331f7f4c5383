/**
 * Page code: the library's JSON against the engine's own, on one document fetched from the bench
 * page's server, interleaved (native, ours, native, ours...) over several rounds: `parseJson`
 * against `JSON.parse`, `parseJsonBytes` on the UTF-8 bytes against `TextDecoder` + `JSON.parse`
 * (what the client does with a response body), `stringifyJson` against `JSON.stringify`.
 */
import { parseJson, parseJsonBytes, stringifyJson } from '../../../src/json/index.js';

/** What the measurement is given. */
export interface JsonArgs {
  documentUrl: string;
  rounds: number;
}

/** Times per round (ms) of each side, and the document's size in characters. */
export interface JsonResult {
  chars: number;
  nativeParse: number[];
  parse: number[];
  nativeBytes: number[];
  bytes: number[];
  nativeStringify: number[];
  stringify: number[];
}

/** Fetches the document and times each pair `args.rounds` times. */
export async function jsonRounds(args: JsonArgs): Promise<JsonResult> {
  const response = await fetch(args.documentUrl);
  if (!response.ok) throw new Error(`json: the document answered ${response.status}`);
  const text = await response.text();
  const body = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  const out: JsonResult = { chars: text.length, nativeParse: [], parse: [], nativeBytes: [], bytes: [], nativeStringify: [], stringify: [] };
  const time = (into: number[], run: () => unknown) => {
    const started = performance.now();
    const value = run();
    into.push(performance.now() - started);
    return value;
  };
  for (let round = 0; round < args.rounds; round++) {
    const native = time(out.nativeParse, () => JSON.parse(text));
    const ours = time(out.parse, () => parseJson(text));
    time(out.nativeBytes, () => JSON.parse(decoder.decode(body)));
    time(out.bytes, () => parseJsonBytes(body));
    time(out.nativeStringify, () => JSON.stringify(native));
    time(out.stringify, () => stringifyJson(ours));
  }
  return out;
}
