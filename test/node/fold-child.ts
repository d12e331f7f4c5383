/**
 * A process the fold crash test starts and kills: it writes to a database on a file storage that
 * folds its journal into a snapshot every few kilobytes (so folds run in the background beside
 * the writes), one transaction at a time, and tells its parent (IPC) the number of each one that
 * committed. With `renameKill`, it kills itself right before or after the n-th rename of a file
 * of the store (the steps of a fold: a journal begun, a snapshot put in place).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { Dexie } from 'dexie';
import { openFileStorage } from '../../src/node/index.js';
import { applyFoldOp, foldOps, FOLD_DB, FOLD_STORES } from './fold-ops.js';

interface Args {
  dataDir: string;
  seed: number;
  renameKill?: { n: number; after: boolean };
}

const args = JSON.parse(process.argv[2]!) as Args;
if (args.renameKill) {
  const { n, after } = args.renameKill;
  const rename = fs.renameSync;
  let renames = 0;
  fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
    const killed = ++renames === n;
    if (killed && !after) process.kill(process.pid, 'SIGKILL');
    rename(from, to);
    if (killed) process.kill(process.pid, 'SIGKILL');
  }) as typeof fs.renameSync;
  syncBuiltinESMExports();
}

const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
const storage = await openFileStorage({ dataDir: args.dataDir, compactAtBytes: 4_096 });
const db = new Dexie(FOLD_DB, { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
db.version(1).stores(FOLD_STORES);
storage.attach(db);
await db.open();
await send({ kind: 'ready' });
let i = 0;
for (const op of foldOps(args.seed)) {
  await applyFoldOp(db, op);
  await send({ kind: 'committed', i: i++ });
}
