import type { Table } from 'dexie';
import type { TimeSlicer } from '../schema/time-slicer.js';
import { writesTogether } from './writes-together.js';

/**
 * Records in the first piece of a {@link putInPieces} (100 products take about 10-15 ms to send in Chromium on a
 * loaded 2-core machine, their search words included); the next are sized by the time the last one took.
 */
const FIRST_PIECE = 100;
/** The fewest and the most records of a piece: each piece is a call of its own; a large one holds up the UI. */
const MIN_PIECE = 25;
const MAX_PIECE = 5000;
/** What a piece aims to take (ms): half a slice, so a piece and what runs around it fit in one. */
const PIECE_MS = 12;

/**
 * `table.bulkPut(records)` inside the caller's read-write transaction, cut into pieces so that
 * the UI gets its turns: the engine copies every record for the database on this thread as its
 * write is sent, and the records of a page of 2,000 orders sent at once are one task long enough
 * to be felt. Pieces are sent one after the other while `slicer`'s slice lasts; once it has run
 * its time, the work waits for the oldest piece still being written and goes on from its
 * completion. Waiting on a request of the transaction, never on a timer, is what keeps it open:
 * a transaction commits once no request is pending, and only a request's completion may send
 * more. The records are written in their order, all in the caller's transaction; if a piece fails,
 * the transaction aborts, nothing more is sent, and the error thrown is that piece's (see
 * `writesTogether`).
 *
 * This is the one helper of the library that waits inside a transaction to send more (docs/design.md,
 * "Inside a transaction"): it waits only on a request of its own transaction, whose completion the
 * engine delivers while the transaction is still active. `table` must be bound to the transaction
 * (`inTransaction` hands its scope such tables), so a piece sent after a wait goes to that
 * transaction whatever Dexie takes as the current one by then.
 */
export async function putInPieces<T>(table: Table<T>, records: readonly T[], slicer: TimeSlicer, now: () => number = () => performance.now()): Promise<void> {
  if (records.length === 0) return;
  const sent: Promise<unknown>[] = [];
  const settled: boolean[] = [];
  let size = FIRST_PIECE;
  let waited = false;
  for (let at = 0; at < records.length; ) {
    // After a wait, at least one piece is sent: the slice may be due again at once (a slow clock).
    if (!waited && sent.length > 0 && slicer.due()) {
      const oldest = settled.indexOf(false);
      const [outcome] = await Promise.allSettled([sent[oldest === -1 ? sent.length - 1 : oldest]]);
      if (outcome.status === 'rejected') break;
      slicer.restart();
      waited = true;
      continue;
    }
    waited = false;
    const piece = records.slice(at, at + size);
    const startedAt = now();
    const write = table.bulkPut(piece);
    const index = sent.push(write) - 1;
    settled.push(false);
    // Its failure is thrown below, with the others'.
    write.then(() => (settled[index] = true), () => (settled[index] = true));
    at += piece.length;
    size = nextPieceSize(size, now() - startedAt);
  }
  await writesTogether(sent);
}

/** As many records as would take {@link PIECE_MS} at the pace of the last piece, at most twice as many. */
function nextPieceSize(size: number, tookMs: number): number {
  const target = tookMs > 0 ? Math.round((size * PIECE_MS) / tookMs) : MAX_PIECE;
  return Math.max(MIN_PIECE, Math.min(MAX_PIECE, size * 2, target));
}
