/**
 * A first sync cut short by a reload of the page resumes where its last applied page left it: the
 * traversal under way asks next for the page after its saved cursor (`id_start`), in the direction it
 * went (stock history's first traversal goes newest first), never from the start again, and the
 * mirror ends equal to the server.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, pageReady, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

/** The collection the reload interrupts: the tiny tenant's longest, many pages at this page size. */
const LONG = 'stock_history';
const PAGE = 20;

describeEngines('a first sync interrupted by a reload in %s', { timeout: 90_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('resumes the traversal under way from its saved cursor', async () => {
    const { sim } = stage;
    // One page a transaction: the traversal asks a page only once the one two before it is written
    // (with more, it runs up to that many pages ahead of its writes, and the reload may find none).
    const open = { token: sim.token, tenant: freshTenant('resume'), pageLimit: PAGE, pagesPerTransaction: 1, pollIntervalMs: 600_000 };
    // The third page of the long collection is held unanswered: the page is reloaded while it waits.
    // Every request for it is held: Firefox sends a request held this way again, on a new
    // connection, as the reload starts, and the page not yet gone would get that answer.
    const pages: URL[] = [];
    const stall = stage.front.stall((url) => {
      // The traversal's pages only, not the progress estimate's questions (100 records each).
      if (!url.pathname.endsWith(`/${LONG}`) || url.searchParams.get('limit') !== String(PAGE)) return false;
      if (pages.length < 3) pages.push(url);
      return url.search === pages[2]?.search;
    });
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      await (window as unknown as PageWindow).conformance.openMirror(o).start();
    }, open);
    await stall.reached;
    await tab.reload();
    stall.end();
    await pageReady(tab);
    const before = sim.requests.count();
    const saved = await tab.evaluate(async (o) => {
      const mirror = (window as unknown as PageWindow).conformance.openMirror(o);
      return (await mirror.db._sync_checkpoints.toArray()).filter((row) => row.cursor !== undefined || row.backwardCursor !== undefined);
    }, open);
    // Each page applied saved its cursor with it. The second page was asked before the first was
    // written and the third before the second was (one page read ahead): the reload finds the
    // cursor after the first page, or after the second when its transaction committed in time.
    expect(saved.map((row) => row.collection)).toEqual([LONG]);
    // A backward traversal's cursor is kept apart from `cursor`, which a tab of an earlier release would resume forward.
    expect(saved[0]!.cursor ?? undefined).toBeUndefined(); // WebKit's driver hands undefined back as null
    const cursor = saved[0]!.backwardCursor!;
    expect(cursor.direction).toBe('backward');
    expect(pages.map((url) => url.searchParams.get('direction'))).toEqual(['backward', 'backward', 'backward']);
    const startOf = (page: number) => pages[page]!.searchParams.get('id_start');
    expect([[startOf(1), PAGE], [startOf(2), 2 * PAGE]]).toContainEqual([cursor.idStart, cursor.records]);

    await tab.evaluate(() => (window as unknown as PageWindow).mirror.start());
    await waitUntil('the sync to end', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);

    // The traversal's pages (the progress estimate's questions, of 100 records, are not a traversal).
    const asked = sim.requests
      .recent()
      .filter((r) => r.seq > before && r.method === 'GET' && r.path.endsWith(`/${LONG}`) && r.query.limit === String(PAGE))
      .map((r) => ({ id_start: r.query.id_start ?? '0', version_start: r.query.version_start ?? '0', direction: r.query.direction }));
    // The first page asked after the reload is the one after the saved cursor, of the same traversal, in its direction...
    expect(asked[0]).toEqual({ id_start: cursor.idStart, version_start: String(cursor.versionStart), direction: 'backward' });
    expect(asked.filter((q) => q.version_start === '0').every((q) => q.direction === 'backward')).toBe(true);
    // ...and the traversal from version 0 never starts over (the delta traversal after it starts at its checkpoint).
    expect(asked.filter((q) => q.id_start === '0' && q.version_start === '0')).toEqual([]);
    const counts = await tab.evaluate(
      (tables) => Promise.all(tables.map((t) => (window as unknown as PageWindow).mirror.db.table(t).count())),
      [...COLLECTIONS],
    );
    expect(counts).toEqual(COLLECTIONS.map((c) => sim.store.count(c)));
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
