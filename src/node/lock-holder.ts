import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds a data directory, as its lock file says. Besides the process id and host name, on
 * Linux it names the machine's boot and the process's start time, so that a lock left by a
 * killed process is never taken for a live one because its process id came back.
 */
export interface LockHolder {
  pid: number;
  host: string;
  since: number;
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`): changes with every start of the machine. */
  boot?: string;
  /** When the process started, in clock ticks since boot (`/proc/<pid>/stat`, field 22). */
  start?: number;
}

/** This process as a lock holder. */
export function currentHolder(): LockHolder {
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: Date.now() };
  const boot = bootId();
  const start = startTicks(process.pid);
  if (boot !== undefined) holder.boot = boot;
  if (start !== undefined) holder.start = start;
  return holder;
}

/**
 * True when the holder is certainly gone, so its lock may be taken over at once. Only a holder
 * of this host can be judged (another host's processes cannot be seen: it is waited for). It is
 * gone when:
 * - the machine has started again since it took the lock (another boot id);
 * - it has this process's id, and this process does not hold the lock (`heldHere` says which
 *   locks it holds): an earlier run with the same id, as a restarted container's process
 *   (often id 1) always is;
 * - no process has its id any more;
 * - a process has its id but started at another time: the id was given to someone else.
 */
export function isGone(holder: LockHolder, heldHere: boolean): boolean {
  if (holder.host !== hostname() || !Number.isSafeInteger(holder.pid) || holder.pid <= 0) return false;
  const boot = bootId();
  if (boot !== undefined && holder.boot !== undefined && boot !== holder.boot) return true;
  if (holder.pid === process.pid) return !heldHere;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a live process of another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const start = startTicks(holder.pid);
  return start !== undefined && holder.start !== undefined && start !== holder.start;
}

/** Reads a holder from the lock file's text; undefined when it is not one. */
export function parseHolder(text: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (typeof holder.pid !== 'number' || typeof holder.host !== 'string' || typeof holder.since !== 'number') return undefined;
    const parsed: LockHolder = { pid: holder.pid, host: holder.host, since: holder.since };
    if (typeof holder.boot === 'string') parsed.boot = holder.boot;
    if (typeof holder.start === 'number') parsed.start = holder.start;
    return parsed;
  } catch {
    return undefined;
  }
}

/** The boot id of a Linux kernel; undefined elsewhere. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The start time of process `pid` in clock ticks since boot (Linux); undefined when unknown. */
function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[22 - 3]);
    return Number.isSafeInteger(start) ? start : undefined;
  } catch {
    return undefined;
  }
}
