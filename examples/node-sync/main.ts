/**
 * node-sync: mirrors a tenant from Node into a durable file storage (a data directory that a
 * restarted run resumes from, with a delta pull), with a progress bar on stderr and a summary on
 * stdout, then a live overview of the latest orders per register until Ctrl+C. Without
 * `--base-url` it starts a simulator whose registers keep selling. See `--help` and README.md.
 */
import { resolve } from 'node:path';
import { createSimulator } from 'pos-cloud-mirror/simulator';
import { openFileStorage } from 'pos-cloud-mirror/node';
import { COLLECTIONS, createMirror, type Mirror } from 'pos-cloud-mirror';
import { readOptions, USAGE, UsageError, type NodeSyncOptions } from './options.js';
import { formatOverview, readOverview } from './overview.js';
import { createProgressBar } from './progress-bar.js';

const USER_AGENT = 'pos-cloud-mirror-example-node-sync/0.1 (pos-cloud-mirror examples)';

async function main(): Promise<number> {
  let options: NodeSyncOptions | 'help';
  try {
    options = readOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`node-sync: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }

  const sim = options.baseUrl
    ? undefined
    : await createSimulator({
        size: options.size,
        seed: options.seed,
        // The simulator's clock runs from now, so "today" and sale times read as a person expects.
        clock: { start: Date.now() },
        activity: options.ordersPerSecond > 0 ? { ordersPerSecond: options.ordersPerSecond } : false,
      });
  const baseUrl = options.baseUrl ?? sim!.baseUrl;
  const token = options.token ?? sim!.token;
  process.stderr.write(sim ? `Started a simulator (${options.size}, seed ${options.seed}) at ${baseUrl}\n` : `Mirroring ${baseUrl}\n`);

  const dataDir = resolve(options.dataDir);
  // --fresh empties the directory only once it is ours: never under another run still using it.
  const storage = await openFileStorage({ dataDir, fresh: options.fresh });
  // A simulator started here listens on a new port each run: its mirror is named after the
  // seeded tenant it serves, so a later run resumes it instead of adding a database each time.
  const dbName = sim ? `pos-cloud-mirror:node-sync simulator (${options.size}, seed ${options.seed})` : undefined;
  const kept = storage.restored.find((d) => (dbName ? d.name === dbName : d.name.includes(new URL(baseUrl).host)));
  process.stderr.write(kept ? `Resuming from ${dataDir} (${kept.replayed} transactions replayed)\n` : `Keeping the mirror in ${dataDir}\n`);
  const mirror = createMirror({ baseUrl, token, userAgent: USER_AGENT, pollIntervalMs: 5_000, storage, ...(dbName ? { dbName } : {}) });
  const stopAll = async () => {
    await mirror.close();
    await sim?.close();
  };

  try {
    const bar = createProgressBar(process.stderr, COLLECTIONS.length);
    const progress = mirror.progress.subscribe((p) => bar.update(p));
    const started = performance.now();
    await mirror.syncNow();
    const seconds = (performance.now() - started) / 1000;
    progress.unsubscribe();
    bar.done();
    process.stdout.write(`${await summary(mirror, seconds)}\n`);
    // Edits a run under another address left in its own copy are said, never left silent.
    for (const copy of (await mirror.findStranded()) ?? []) {
      process.stderr.write(
        `Not sent: ${copy.pending} edit(s) made under ${copy.baseUrl} are kept in its own copy (database "${copy.dbName}" in ${dataDir}); ` +
          'they go out once a mirror opens that copy (dbName) or takes them over (mirror.takeOverEdits)\n',
      );
    }
  } catch (error) {
    process.stderr.write(`\nnode-sync: the sync failed: ${(error as Error).name}: ${(error as Error).message}\n`);
    await stopAll();
    return 1;
  }

  if (options.once) {
    await stopAll();
    return 0;
  }
  return liveOverview(mirror, options.intervalSeconds, stopAll);
}

/** Records per collection, time, and what is pending or set aside. */
async function summary(mirror: Mirror, seconds: number): Promise<string> {
  const counts = await Promise.all(COLLECTIONS.map(async (c) => [c, await mirror.db.collection(c).count()] as const));
  const categories = await mirror.db.categories.count();
  const total = counts.reduce((s, [, n]) => s + n, 0);
  const width = Math.max(...COLLECTIONS.map((c) => c.length), 'categories'.length);
  const status = mirror.status.value;
  return [
    '',
    'Collection'.padEnd(width) + '  ' + 'Records'.padStart(10),
    ...counts.map(([c, n]) => c.padEnd(width) + '  ' + n.toLocaleString('en-US').padStart(10)),
    'categories'.padEnd(width) + '  ' + categories.toLocaleString('en-US').padStart(10),
    '',
    `Total: ${total.toLocaleString('en-US')} records in ${seconds.toFixed(1)} s (${Math.round(total / Math.max(seconds, 0.001)).toLocaleString('en-US')} records/s)`,
    `Pending pushes: ${status.pendingPushes}   Refused: ${status.rejected}   Conflicts: ${status.conflicts}   Quarantined: ${status.quarantined}`,
  ].join('\n');
}

/** Keeps syncing and prints the latest orders per register every few seconds until Ctrl+C. */
function liveOverview(mirror: Mirror, intervalSeconds: number, stopAll: () => Promise<void>): Promise<number> {
  return new Promise((done) => {
    // Registers already watched; mirror.close() stops every watcher.
    const watched = new Set<string>();
    const watchRegisters = async () => {
      for (const register of await mirror.db.cash_registers.toArray()) {
        if (register._d || watched.has(register.id)) continue;
        mirror.watchLatestOrders(register.id, { intervalMs: 2_000 });
        watched.add(register.id);
      }
    };
    const print = async () => {
      const now = Date.now();
      process.stdout.write(`\n${formatOverview(await readOverview(mirror, now), now)}\n`);
    };
    void mirror.start().then(watchRegisters).then(print);
    const timer = setInterval(() => void watchRegisters().then(print), intervalSeconds * 1000);
    const stop = async () => {
      clearInterval(timer);
      await stopAll();
      done(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });
}

// Exit explicitly: a real service's keep-alive sockets must not hold the process open.
process.exit(await main());
