/**
 * WebKit's lost IndexedDB server, in a MiniBrowser of its own driven through its inspector (killing
 * the network process under WebKitWebDriver ends the WebDriver session, and its ephemeral session
 * keeps IndexedDB in that process's memory). Once the process that served IndexedDB died, every
 * open of the page's IndexedDB fails ("UnknownError: Connection to Indexed Database server lost.
 * Refresh the page to try again") for good; `reopenDatabase` opens the database on a fresh frame's
 * IndexedDB instead, with its data, and Dexie's live queries answer again.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inspectWebKitPage, type InspectedPage } from '../../scripts/engines/webkit-inspector.js';
import { bundleForBrowser, repoPath } from '../../scripts/bundle-for-browser.js';
import { descendants, killAll } from '../../scripts/engines/processes.js';
import { SLOW, waitUntil } from '../e2e/dom.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('a lost IndexedDB server in %s', { timeout: 90_000 }, () => {
  let server: Server;
  let page: InspectedPage;

  beforeAll(async () => {
    const bundle = await bundleForBrowser(
      `export { Dexie, liveQuery } from 'dexie';\nexport { reopenDatabase } from ${JSON.stringify(repoPath('src/db/reopen.ts'))};\nexport { isConnectionLost } from ${JSON.stringify(repoPath('src/db/connection-lost.ts'))};`,
      'lost',
    );
    server = createServer((request, response) => {
      if (request.url === '/lost.js') response.end(bundle);
      else response.end('<!doctype html><script src="/lost.js"></script>');
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    page = await inspectWebKitPage(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    // The inspector lists the page as it starts loading: its script may not have run yet.
    await waitUntil('the page\'s script', () => page.evaluate<string>('typeof window.lost'), (type) => type === 'object', SLOW);
  }, 60_000);

  afterAll(async () => {
    await page?.close();
    server?.close();
  });

  const state = () => page.evaluate<string>('JSON.stringify(window.seen)').then((text) => JSON.parse(text) as { answers: number[]; errors: string[]; reopened?: boolean; rows?: number });

  it('is met by opening the database on a fresh frame, with its data and its live queries', async () => {
    await page.evaluate(`(() => {
      const { Dexie, liveQuery } = window.lost;
      window.seen = { answers: [], errors: [] };
      const db = (window.db = new Dexie('lost-server'));
      db.version(1).stores({ items: 'id' });
      db.table('items').put({ id: 'before' });
      liveQuery(() => db.table('items').count()).subscribe({ next: (n) => seen.answers.push(n), error: (e) => seen.errors.push('live: ' + e.name) });
    })()`);
    await waitUntil('the first answer', state, (s) => s.answers.at(-1) === 1);
    expect(killAll(descendants(process.pid, /WebKitNetworkProcess/))).toBe(1);
    await page.evaluate(`(() => {
      const { reopenDatabase, isConnectionLost } = window.lost;
      db.table('items').put({ id: 'during' }).then(
        () => seen.errors.push('the write went through'),
        (error) => {
          seen.errors.push(error.name + ': ' + error.message + ' / ' + (error.inner ? error.inner.name + ': ' + error.inner.message : '') + (isConnectionLost(error) ? ' (lost)' : ''));
          return reopenDatabase(db).then(async () => {
            seen.reopened = true;
            await db.table('items').put({ id: 'after' });
            seen.rows = await db.table('items').count();
          }, (e) => seen.errors.push('reopen: ' + e.name + ': ' + e.message));
        },
      );
    })()`);
    const after = await waitUntil('the write after the reopen', state, (s) => s.rows !== undefined || s.errors.some((e) => e.startsWith('reopen')), SLOW);
    expect(after).toMatchObject({ reopened: true, rows: 2 });
    expect(after.errors).toHaveLength(1);
    expect(after.errors[0]).toMatch(/\(lost\)$/);
    await waitUntil('the live query to answer again', state, (s) => s.answers.at(-1) === 2);
  });
}, ['webkit']);
