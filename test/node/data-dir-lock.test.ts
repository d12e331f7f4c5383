import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir } from '../../src/node/data-dir-lock.js';
import type { LockHolder } from '../../src/node/lock-holder.js';
import { tempDataDir } from './storage-fixture.js';

/** What the lock file of a live process `pid` of this machine says (Linux). */
function liveHolder(pid: number): LockHolder {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  return { pid, host: hostname(), since: Date.now() - 60_000, boot, start };
}

/** Leaves a lock file in `dataDir` as a process that held it would have. */
function leaveLock(dataDir: string, holder: LockHolder): void {
  writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify(holder));
}

/** Tries to take `dataDir`, giving up after `ms`: the lock, or the error. */
async function tryLock(dataDir: string, ms = 400) {
  return lockDataDir(dataDir, { signal: AbortSignal.timeout(ms), pollMs: 20 }).catch((error: unknown) => error);
}

describe('lockDataDir', () => {
  const dirs: { cleanup(): void }[] = [];
  const fresh = () => {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir.dataDir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it('takes over at once a lock left by an earlier run with this very process id (a restarted container)', async () => {
    const dataDir = fresh();
    leaveLock(dataDir, { ...liveHolder(process.pid), start: liveHolder(process.pid).start! - 1 });
    const lock = await tryLock(dataDir);
    expect(lock).not.toBeInstanceOf(Error);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, since: expect.any(Number) });
    (lock as { release(): void }).release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock whose process id now belongs to a process that started later (an id given again)', async () => {
    const dataDir = fresh();
    leaveLock(dataDir, { ...liveHolder(process.ppid), start: liveHolder(process.ppid).start! - 1 });
    const lock = await tryLock(dataDir);
    expect(lock).not.toBeInstanceOf(Error);
    (lock as { release(): void }).release();
  });

  it('takes over a lock taken before the machine last started', async () => {
    const dataDir = fresh();
    leaveLock(dataDir, { ...liveHolder(process.ppid), boot: '00000000-0000-0000-0000-000000000000' });
    const lock = await tryLock(dataDir);
    expect(lock).not.toBeInstanceOf(Error);
    (lock as { release(): void }).release();
  });

  it('takes over a lock whose process is gone, and one left empty by a process killed while writing it', async () => {
    const gone = fresh();
    leaveLock(gone, { ...liveHolder(process.pid), pid: 2 ** 22 + 7 });
    const first = await tryLock(gone);
    expect(first).not.toBeInstanceOf(Error);
    (first as { release(): void }).release();

    const empty = fresh();
    writeFileSync(join(empty, LOCK_FILE), '');
    const second = await tryLock(empty, 4_000);
    expect(second).not.toBeInstanceOf(Error);
    (second as { release(): void }).release();
    expect(readdirSync(empty)).toEqual([]);
  });

  it('waits for a live holder in another process, and gives up on the signal naming the directory and the holder', async () => {
    const dataDir = fresh();
    const holder = liveHolder(process.ppid);
    leaveLock(dataDir, holder);
    const error = await tryLock(dataDir);
    expect(error).toMatchObject({ name: 'StorageError', problem: 'locked', path: dataDir });
    expect((error as Error).message).toContain(`process ${holder.pid} on ${holder.host}`);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toEqual(holder);
  });

  it('waits for a holder of another host, which it cannot see', async () => {
    const dataDir = fresh();
    leaveLock(dataDir, { ...liveHolder(process.pid), host: `${hostname()}-elsewhere`, pid: 2 ** 22 + 7 });
    expect(await tryLock(dataDir)).toMatchObject({ name: 'StorageError', problem: 'locked' });
  });

  it('makes a second opener in the same process wait until the first releases', async () => {
    const dataDir = fresh();
    const first = await lockDataDir(dataDir);
    expect(await tryLock(dataDir, 200)).toMatchObject({ name: 'StorageError', problem: 'locked' });
    const second = lockDataDir(dataDir, { pollMs: 20 });
    first.release();
    (await second).release();
  });
});
