import { existsSync } from 'node:fs';

/**
 * Throws, saying how to install it, when an engine's program is missing: the browser suites never
 * skip an engine silently (`.ci/run` installs all of them from Debian's packages).
 */
export function requireBinary(path: string, what: string, debianPackages: string): void {
  if (!existsSync(path)) {
    throw new Error(`${what} is not installed at ${path}: the browser suites need it (apt-get install ${debianPackages}; .ci/run does this)`);
  }
}
