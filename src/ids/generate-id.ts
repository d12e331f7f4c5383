import type { Id } from './id.js';
import { createIdGenerator, type GenerateIdOptions } from './id-generator.js';
import type { TableName } from './table-ids.js';

const shared = createIdGenerator();

/**
 * A fresh id for a record of `table` (a name of `TABLE_IDS` or a table id 0..63), from the
 * spec's composition, as a canonical decimal string. Ids of one table made in this process are
 * unique and strictly increasing, also in bursts of thousands per millisecond and when the
 * clock goes backwards; the rules and the bound on how far a burst runs ahead of the clock are
 * those of {@link createIdGenerator}, whose state this function shares process-wide.
 *
 * Throws a `ValidationError` for an unknown table, a table id outside 0..63, a `now` before the
 * id epoch, or a `random` that does not return a number in [0, 1).
 *
 * @example
 * generateId('orders'); // '11644821822934740': decodeId gives { createdAt: now, tableId: 7, random: 212 }
 */
export function generateId(table: TableName | number, opts?: GenerateIdOptions): Id {
  return shared.generate(table, opts);
}
