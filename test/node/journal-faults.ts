/**
 * Kills this process (SIGKILL) in the middle of a journal commit, for the crash-safety test: at
 * the n-th write to a journal file, either after writing only part of it (`tear`: a torn record,
 * as a write cut short leaves it), or right after the n-th `fsync` of a journal (`afterSync`: the
 * transaction is durable, but no one was told it committed). The file functions of `node:fs` are
 * replaced, and the ES module bindings of it updated, so the storage code sees the replacements.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/** Which journal write to die at (counted from 1 in this process). */
export interface JournalFault {
  tear?: number;
  afterSync?: number;
}

export function injectJournalFault(fault: JournalFault): void {
  const journals = new Set<number>();
  let writes = 0;
  let syncs = 0;
  const { openSync, writeSync, fsyncSync, closeSync } = fs;
  const die = (): never => {
    process.kill(process.pid, 'SIGKILL');
    throw new Error('unreachable: killed');
  };
  fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
    const fd = (openSync as (...args: unknown[]) => number)(path, ...rest);
    if (/[/\\]journal(\.tmp)?$/.test(String(path))) journals.add(fd);
    return fd;
  }) as typeof fs.openSync;
  fs.closeSync = ((fd: number) => {
    journals.delete(fd);
    closeSync(fd);
  }) as typeof fs.closeSync;
  fs.writeSync = ((fd: number, buffer: NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    if (journals.has(fd) && ++writes === fault.tear && buffer instanceof Uint8Array && buffer.length > 1) {
      writeSync(fd, buffer.subarray(0, 1 + Math.floor(Math.random() * (buffer.length - 1))));
      fsyncSync(fd);
      die();
    }
    return (writeSync as (...args: unknown[]) => number)(fd, buffer, ...rest);
  }) as typeof fs.writeSync;
  fs.fsyncSync = ((fd: number) => {
    fsyncSync(fd);
    if (journals.has(fd) && ++syncs === fault.afterSync) die();
  }) as typeof fs.fsyncSync;
  syncBuiltinESMExports();
}
