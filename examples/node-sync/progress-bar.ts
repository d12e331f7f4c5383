import type { SyncProgress } from 'pos-cloud-mirror';

/**
 * Draws the first sync's progress on a stream (stderr): one self-overwriting line on a
 * terminal (records so far, about how many are left, a resumed collection), a line per finished
 * or resumed collection otherwise (logs, CI).
 */
export function createProgressBar(stream: NodeJS.WriteStream, collections: number, width = 24): { update(p: SyncProgress): void; done(): void } {
  const tty = stream.isTTY === true;
  const reported = new Set<string>();
  let last = '';
  return {
    update(progress) {
      const entries = Object.entries(progress.collections);
      const done = entries.filter(([, p]) => p?.done).length;
      const records = progress.records;
      if (!tty) {
        for (const [name, p] of entries) {
          // A first sync the last run left unfinished goes on from its saved cursor.
          if (p && !p.done && p.resumedAt !== undefined && !reported.has(`resumed ${name}`)) {
            reported.add(`resumed ${name}`);
            stream.write(`resumed ${name} at ${p.resumedAt.toLocaleString('en-US')} records\n`);
          }
          if (p?.done && !reported.has(name)) {
            reported.add(name);
            stream.write(`synced ${name}: ${p.records.toLocaleString('en-US')} records\n`);
          }
        }
        return;
      }
      const filled = Math.round((done / collections) * width);
      const current = entries.find(([, p]) => p && !p.done);
      // The estimate covers the collections under way (the service gives no count).
      const left = progress.remaining === undefined ? '' : ` · about ${progress.remaining.toLocaleString('en-US')} left`;
      const resumed = current?.[1]?.resumedAt === undefined ? '' : ` (resumed at ${current[1].resumedAt.toLocaleString('en-US')})`;
      const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${collections} collections · ${records.toLocaleString('en-US')} records${left}${current ? ` · ${current[0]}…${resumed}` : ''}`;
      if (line !== last) stream.write(`\r\x1b[K${line}`);
      last = line;
    },
    done() {
      if (tty && last) stream.write('\n');
    },
  };
}
