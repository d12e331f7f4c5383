import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../errors/index.js';
import { currentHolder, isGone, parseHolder, type LockHolder } from './lock-holder.js';

/** The lock file in a data directory: who holds the directory. */
export const LOCK_FILE = '.lock';

/** The lock files this process holds (absolute paths): a second opener in this process waits too. */
const heldHere = new Set<string>();

/** Options of {@link lockDataDir}. */
export interface LockOptions {
  /** Stops waiting for another process: the call then throws a `StorageError` (`locked`). */
  signal?: AbortSignal | undefined;
  /** How often a held lock is looked at again (ms). @default 250 */
  pollMs?: number | undefined;
}

/** A held lock; {@link release} gives it back. */
export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data directory for this process alone: one process at a time reads and writes a
 * durable store, so two never interleave their writes. The lock is a file created exclusively
 * (`O_EXCL`) naming this process (see {@link LockHolder}). A lock whose holder is certainly gone
 * (killed, see {@link isGone}: judged by process id, start time and boot, so a restarted
 * container whose process has the same id as the killed one is not stuck behind its own ghost)
 * is taken over at once; a live holder, or one of another host, is waited for, polling, until it
 * releases the lock or `signal` aborts. Another opener in this same process waits too. The lock
 * is also released when the process exits normally.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  const me = currentHolder();
  for (;;) {
    if (tryCreate(path, me)) break;
    const found = readHolder(path);
    if (found === 'missing') continue;
    if (found === 'being-written') {
      await waitOrAbort(options.pollMs ?? 250, options.signal);
      continue;
    }
    if (found === 'unreadable' || isGone(found, heldHere.has(path))) {
      removeStale(path, found);
      continue;
    }
    if (!options.signal?.aborted) {
      await waitOrAbort(options.pollMs ?? 250, options.signal);
      continue;
    }
    throw new StorageError(`${dataDir} is in use by process ${found.pid} on ${found.host} (since ${new Date(found.since).toISOString()})`, {
      path: dataDir,
      problem: 'locked',
      cause: options.signal.reason,
    });
  }
  heldHere.add(path);
  const onExit = () => releaseIfMine(path, me);
  process.once('exit', onExit);
  return {
    release() {
      process.off('exit', onExit);
      heldHere.delete(path);
      releaseIfMine(path, me);
    },
  };
}

/** Creates the lock file with `holder` in it; false when it exists already. */
function tryCreate(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StorageError(`cannot create the lock file ${path}: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The holder the lock file names; `missing` when it went away meanwhile; `being-written` when it
 * is empty or partly written and young (a live holder between creating and writing it);
 * `unreadable` when it stays so (a holder killed between the two).
 */
function readHolder(path: string): LockHolder | 'missing' | 'being-written' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new StorageError(`cannot read the lock file ${path}: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
  }
  const holder = parseHolder(text);
  if (holder) return holder;
  try {
    return Date.now() - statSync(path).mtimeMs > 2_000 ? 'unreadable' : 'being-written';
  } catch {
    return 'missing';
  }
}

/**
 * Removes a lock file judged stale. It is first renamed aside, so that what is removed is what
 * was judged: if another waiter took the directory over in between (the file now names a
 * holder other than `judged`), that file is put back.
 */
function removeStale(path: string, judged: LockHolder | 'unreadable'): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StorageError(`cannot remove the stale lock file ${path}: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
  }
  const moved = readHolder(aside);
  const same = judged === 'unreadable' ? moved === 'unreadable' || moved === 'being-written' : typeof moved === 'object' && sameHolder(moved, judged);
  if (!same) {
    try {
      linkSync(aside, path); // never over a lock file created meanwhile
    } catch {
      // Someone holds it now; the next look decides.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Gone already.
  }
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since && a.start === b.start;
}

function releaseIfMine(path: string, me: LockHolder): void {
  const holder = readHolder(path);
  if (typeof holder === 'object' && sameHolder(holder, me)) {
    try {
      unlinkSync(path);
    } catch {
      // Gone already.
    }
  }
}

function waitOrAbort(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
