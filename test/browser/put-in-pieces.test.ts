/**
 * Writes cut into pieces inside one transaction of the engine's IndexedDB, as a pull writes a
 * large page: the page's own tasks run between the pieces, and the transaction neither commits
 * early (a transaction with no pending request commits) nor keeps a part of a failed page.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('writes in pieces in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('let a timer run between the pieces of one transaction, which commits every record in order with its cursor', async () => {
    const tab = await stage.openPage();
    const seen = await tab.evaluate((count) => (window as unknown as PageWindow).conformance.writeInPieces('pieces-commit', count), 3000);
    expect(seen).toMatchObject({ outcome: 'committed', stored: 3000, cursors: 1, inOrder: true });
    expect(seen.waits).toBeGreaterThan(0);
    expect(seen.pieces).toBeGreaterThan(1);
    expect(seen.piecesAfterTimer).toBeGreaterThan(0);
    expectNoPageErrors(stage);
  });

  it('keep nothing of the records nor the cursor when a later piece fails', async () => {
    const tab = await stage.openPage();
    const seen = await tab.evaluate((count) => (window as unknown as PageWindow).conformance.writeInPieces('pieces-abort', count, count - 1), 3000);
    expect(seen.outcome).not.toBe('committed');
    expect(seen).toMatchObject({ stored: 0, cursors: 0 });
    expect(seen.pieces).toBeGreaterThan(1);
  });
});
