import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, src } from './source-files.js';

/** A Dexie transaction opened directly (`db.transaction('rw', ...)`), not a raw IndexedDB one (`db.transaction(stores, 'readonly')`). */
const DEXIE_TRANSACTION = /\.transaction\(\s*'(?:r|rw|readonly|readwrite)'/;

describe('transactions in src/', () => {
  it('are all opened through inTransaction, whose scope writes to the transaction it was given (docs/design.md, "Inside a transaction")', () => {
    const direct = sourceFiles()
      .filter((file) => file !== join('db', 'in-transaction.ts'))
      .flatMap((file) =>
        readFileSync(join(src, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (DEXIE_TRANSACTION.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(direct).toEqual([]);
  });
});
