import { readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `src/` folder, absolute. */
export const src = normalize(join(dirname(fileURLToPath(import.meta.url)), '../../src'));

/** Every source file, by path relative to `src/`. */
export function sourceFiles(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(src, path)] : [];
  });
}
