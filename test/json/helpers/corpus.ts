import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The JSONTestSuite parsing corpus shared with the project (see its README). */
export const CORPUS_DIR = '/work/shared/corpora/jsontestsuite/test_parsing';

/** One corpus document, decoded as a fetch `Response.text()` decodes a body. */
export interface CorpusDocument {
  name: string;
  text: string;
}

/** Every document whose file name starts with `prefix` (`y_`, `n_` or `i_`), sorted by name. */
export async function corpus(prefix: 'y_' | 'n_' | 'i_'): Promise<CorpusDocument[]> {
  const names = readdirSync(CORPUS_DIR).filter((name) => name.startsWith(prefix) && name.endsWith('.json')).sort();
  // Bytes in, then UTF-8 with replacement and BOM stripping, exactly as a response body.
  return Promise.all(names.map(async (name) => ({ name, text: await new Response(readFileSync(join(CORPUS_DIR, name))).text() })));
}
