/**
 * The page processes of a running browser, read from `/proc`: to suspend and resume them together
 * (SIGSTOP, SIGCONT), what a closed laptop lid does to every tab at once, and to read the memory
 * they hold.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      // The process ended while it was read.
    }
  }
  return out;
}

/** Every process below `root` (its children, theirs, and so on) whose command line matches `pattern`. */
export function descendants(root: number, pattern: RegExp): number[] {
  const all = processes();
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!below.has(p.pid) && below.has(p.ppid)) {
        below.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => p.pid !== root && below.has(p.pid) && pattern.test(p.cmdline)).map((p) => p.pid);
}

/** Every process whose command line matches `pattern` (for browsers whose root process is not ours to know). */
export function matching(pattern: RegExp): number[] {
  return processes()
    .filter((p) => pattern.test(p.cmdline))
    .map((p) => p.pid);
}

/** Sends SIGSTOP (`true`) or SIGCONT (`false`) to each of `pids` that still runs. */
function signalAll(pids: readonly number[], suspended: boolean): void {
  for (const pid of pids) {
    try {
      process.kill(pid, suspended ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      // Gone already: a closed tab's process.
    }
  }
}

/**
 * A closed and opened lid for a browser whose page processes `pageProcesses` finds: `suspend(true)`
 * stops the ones running now, `suspend(false)` resumes those, and `resumeAll()` (before the browser
 * closes) resumes whatever is still stopped.
 */
export function lid(pageProcesses: () => number[]): { suspend(suspended: boolean): Promise<void>; resumeAll(): void } {
  let stopped: number[] = [];
  return {
    async suspend(suspended) {
      if (suspended) stopped = pageProcesses();
      signalAll(stopped, suspended);
      if (!suspended) stopped = [];
    },
    resumeAll() {
      signalAll(stopped, false);
      stopped = [];
    },
  };
}

/** Ends each of `pids` that still runs with SIGKILL, as an operating system ends a process it reclaims; returns how many it reached. */
export function killAll(pids: readonly number[]): number {
  let killed = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // Gone already.
    }
  }
  return killed;
}

/**
 * How long ago process `pid` started (ms), from `/proc` (its start in clock ticks since boot, at
 * Linux's fixed 100 ticks a second, against the uptime); undefined when it is gone.
 */
export function startedAgoMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the fields after the command name follow the last ')', from field 3.
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return uptimeSeconds * 1000 - startTicks * 10;
  } catch {
    return undefined;
  }
}

/**
 * The memory `pids` hold together (bytes): the sum of each one's proportional set size (`Pss` in
 * `/proc/<pid>/smaps_rollup`), so pages the processes share (the engine's libraries, shared
 * memory between them) count once in all; a process without that file counts its resident set
 * (`VmRSS`). A process that ended while it was read counts nothing.
 */
export function memoryOf(pids: readonly number[]): number {
  let bytes = 0;
  for (const pid of pids) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      bytes += kilobytes(rollup, 'Pss');
    } catch {
      try {
        bytes += kilobytes(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      } catch {
        // Gone.
      }
    }
  }
  return bytes;
}

/** The `name:  N kB` line of a `/proc` file, in bytes (0 when absent). */
function kilobytes(text: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}
