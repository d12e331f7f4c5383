import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The JSONTestSuite parsing corpus (Nicolas Seriot, MIT: see its LICENSE), kept in the repository
 * under `test/json/corpus/jsontestsuite`. `POS_CORPUS_DIR` overrides. A missing corpus fails loudly.
 */
export const CORPUS_DIR = findCorpus();

function findCorpus(): string {
  const candidates = [
    process.env.POS_CORPUS_DIR,
    resolve(repoRoot, 'test/json/corpus/jsontestsuite/test_parsing'),
  ].filter((c): c is string => typeof c === 'string' && c !== '');
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`JSONTestSuite corpus not found; looked in ${candidates.join(', ')} (set POS_CORPUS_DIR)`);
  return found;
}

/** One corpus document, decoded as a fetch `Response.text()` decodes a body. */
export interface CorpusDocument {
  name: string;
  text: string;
  /** The file as it is, before decoding. */
  bytes: Uint8Array;
}

/** Every document whose file name starts with `prefix` (`y_`, `n_` or `i_`), sorted by name. */
export async function corpus(prefix: 'y_' | 'n_' | 'i_'): Promise<CorpusDocument[]> {
  const names = readdirSync(CORPUS_DIR).filter((name) => name.startsWith(prefix) && name.endsWith('.json')).sort();
  // Bytes in, then UTF-8 with replacement and BOM stripping, exactly as a response body.
  return Promise.all(
    names.map(async (name) => {
      const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
      return { name, text: await new Response(bytes).text(), bytes };
    }),
  );
}
