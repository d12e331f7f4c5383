import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = normalize(join(dirname(fileURLToPath(import.meta.url)), '../../src'));

/** Every source file, by path relative to `src/`. */
function sourceFiles(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(src, path)] : [];
  });
}

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
