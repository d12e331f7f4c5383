import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StorageError } from '../errors/index.js';

/** The lock file in a data directory: who holds the directory. */
export const LOCK_FILE = '.lock';

/** What the lock file says. */
interface Holder {
  pid: number;
  host: string;
  since: number;
}

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
 * (`O_EXCL`) holding this process's id and host. A lock whose holder is gone (a process of this
 * host that no longer exists: it was killed) is taken over at once; a live holder is waited for,
 * polling, until it releases the lock or `signal` aborts. The lock is also released when the
 * process exits normally.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), since: Date.now() };
  for (;;) {
    if (tryCreate(path, me)) break;
    const holder = readHolder(path);
    if (holder === undefined || isGone(holder)) {
      removeStale(path);
      continue;
    }
    if (options.signal?.aborted) {
      throw new StorageError(`${dataDir} is in use by process ${holder.pid} on ${holder.host} (since ${new Date(holder.since).toISOString()})`, {
        path: dataDir,
        problem: 'locked',
        cause: options.signal.reason,
      });
    }
    await waitOrAbort(options.pollMs ?? 250, options.signal);
  }
  const onExit = () => releaseIfMine(path, me);
  process.once('exit', onExit);
  return {
    release() {
      process.off('exit', onExit);
      releaseIfMine(path, me);
    },
  };
}

/** Creates the lock file with `holder` in it; false when it exists already. */
function tryCreate(path: string, holder: Holder): boolean {
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

/** The holder the lock file names; undefined when it cannot be read (a holder killed while writing it, long enough ago). */
function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.since === 'number') return holder as Holder;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { pid: -1, host: '', since: 0 };
  }
  // Unreadable: a holder that died between creating and writing it leaves it empty. Give a live
  // one a moment to finish writing before taking it for stale.
  try {
    return Date.now() - statSync(path).mtimeMs > 2_000 ? undefined : { pid: 0, host: '', since: Date.now() };
  } catch {
    return { pid: -1, host: '', since: 0 };
  }
}

/** A holder that is certainly gone: a process of this host that does not exist any more. */
function isGone(holder: Holder): boolean {
  if (holder.pid === -1) return true; // the file went away meanwhile: try again
  if (holder.host !== hostname() || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function removeStale(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StorageError(`cannot remove the stale lock file ${path}: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
  }
}

function releaseIfMine(path: string, me: Holder): void {
  const holder = readHolder(path);
  if (holder && holder.pid === me.pid && holder.since === me.since) {
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
