/**
 * Page code of the pieces test (`test/browser/put-in-pieces.test.ts`): records written in pieces
 * inside one transaction of the engine's IndexedDB, with a saved cursor beside them, as a pull
 * writes a page.
 */
import { Dexie } from 'dexie';
import { createTimeSlicer } from '../../../src/schema/time-slicer.js';
import { putInPieces } from '../../../src/db/put-in-pieces.js';

/** What {@link writeInPieces} saw. */
export interface PiecesOutcome {
  /** The transaction committed; else the name of the error it failed with. */
  outcome: 'committed' | string;
  /** Times the writes waited for a piece to be written before sending more. */
  waits: number;
  /** Pieces sent, and how many of them were sent after a timer set as the first was sent had run. */
  pieces: number;
  piecesAfterTimer: number;
  /** Records and cursor rows stored afterwards. */
  stored: number;
  cursors: number;
  /** The stored ids are exactly 1..count, in order. */
  inOrder: boolean;
}

/**
 * Writes `count` records and a cursor row in one read-write transaction, the records through
 * {@link putInPieces} with a slicer whose slices are always over (every piece is followed by a
 * wait). With `badAt`, the record at that index has no key, so its piece fails.
 */
export async function writeInPieces(dbName: string, count: number, badAt?: number): Promise<PiecesOutcome> {
  await Dexie.delete(dbName);
  const db = new Dexie(dbName);
  db.version(1).stores({ records: 'id', cursors: 'name' });
  await db.open();
  try {
    const records = Array.from({ length: count }, (_, i) => (i === badAt ? { note: 'no id' } : { id: String(i + 1).padStart(8, '0'), note: 'x'.repeat(200) }));
    let restarts = 0;
    const slicer = createTimeSlicer({ budgetMs: 0 });
    const counted = { ...slicer, restart: () => (restarts++, slicer.restart()), due: slicer.due, yield: slicer.yield, yields: 0 };
    // Each piece sent notes whether a timer set when the first was sent has run: a task of the
    // page's own ran between the pieces, inside the transaction.
    const table = db.table('records');
    const bulkPut = table.bulkPut.bind(table);
    const sentAfterTimer: boolean[] = [];
    let timerRan = false;
    table.bulkPut = ((items: unknown[]) => {
      if (sentAfterTimer.length === 0) setTimeout(() => (timerRan = true), 0);
      sentAfterTimer.push(timerRan);
      return bulkPut(items);
    }) as typeof table.bulkPut;
    let outcome = 'committed';
    try {
      await db.transaction('rw', [table, db.table('cursors')], async () => {
        await Promise.all([putInPieces(table, records, counted), db.table('cursors').put({ name: 'page', at: count })]);
      });
    } catch (error) {
      outcome = (error as Error).name;
    }
    const ids = (await db.table('records').toCollection().primaryKeys()) as string[];
    return {
      outcome,
      waits: restarts,
      pieces: sentAfterTimer.length,
      piecesAfterTimer: sentAfterTimer.filter(Boolean).length,
      stored: ids.length,
      cursors: await db.table('cursors').count(),
      inOrder: ids.every((id, i) => Number(id) === i + 1),
    };
  } finally {
    db.close();
    await Dexie.delete(dbName);
  }
}
