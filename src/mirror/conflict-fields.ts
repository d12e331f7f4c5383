import type { ConflictRow } from '../db/sync-rows.js';
import { diffFields } from '../sync/records/fields.js';
import type { Conflict } from './typed-rows.js';

/**
 * A conflict row as `mirror.conflicts()` hands it out: with the fields this device changed
 * (`localChanged`: base against local) and those the server changed (`serverChanged`: base against
 * server), for a screen that shows both sides. A side with no base (a create that met another
 * record under its id) or no record (a deletion) lists every field it holds.
 */
export function withChangedFields(row: ConflictRow): Conflict {
  const changed = (side: ConflictRow['local']): string[] => {
    if (!side) return [];
    return row.base ? diffFields(row.base, side) : diffFields({ id: side.id, _v: side._v }, side);
  };
  return { ...row, localChanged: changed(row.local), serverChanged: changed(row.server) } as Conflict;
}
