import type { SyncProgress } from '../shared/library.js';

/**
 * Draws the first sync's progress on a stream (stderr): one self-overwriting line on a
 * terminal, a line per finished collection otherwise (logs, CI).
 */
export function createProgressBar(stream: NodeJS.WriteStream, collections: number, width = 24): { update(p: SyncProgress): void; done(): void } {
  const tty = stream.isTTY === true;
  const reported = new Set<string>();
  let last = '';
  return {
    update(progress) {
      const entries = Object.entries(progress.collections);
      const done = entries.filter(([, p]) => p?.done).length;
      const records = entries.reduce((s, [, p]) => s + (p?.records ?? 0), 0);
      if (!tty) {
        for (const [name, p] of entries) {
          if (p?.done && !reported.has(name)) {
            reported.add(name);
            stream.write(`synced ${name}: ${p.records.toLocaleString('en-US')} records\n`);
          }
        }
        return;
      }
      const filled = Math.round((done / collections) * width);
      const current = entries.find(([, p]) => p && !p.done);
      const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${collections} collections · ${records.toLocaleString('en-US')} records${current ? ` · ${current[0]}…` : ''}`;
      if (line !== last) stream.write(`\r\x1b[K${line}`);
      last = line;
    },
    done() {
      if (tty && last) stream.write('\n');
    },
  };
}
