import type { MirrorDb } from '../../db/mirror-db.js';
import type { QuarantineRow, StoredRecord } from '../../db/sync-rows.js';
import { ValidationError } from '../../errors/index.js';
import { parseRecord } from '../../schema/index.js';
import type { CollectionName } from '../../schema/collections.js';
import { applyServerRecords, applyTables, type ApplyResult } from './apply-records.js';
import { rescueParent } from './hydrations.js';
import { holdInQuarantine, quarantineRow, rescueRefusedParents } from './quarantine.js';
import { inTransaction } from '../../db/in-transaction.js';

/** What {@link ingestRecords} did. */
export interface IngestReport extends ApplyResult {
  /** Records quarantined: refused records, and refused hydrated children of applied parents. */
  quarantined: number;
}

/**
 * Applies records that arrived by other means (a webhook, a relay, a latest-orders poll)
 * through the same path and rules as a pull: the read schema (bad records quarantined with
 * the reason, issue paths starting with the record's index in `records`; a parent refused only
 * for a bad hydrated child applied without it, the child quarantined), `_v` newer-wins, pending
 * local edits respected, hydrations split. One transaction.
 */
export async function ingestRecords(
  db: MirrorDb,
  collection: CollectionName,
  records: readonly unknown[],
  now: () => number = Date.now,
): Promise<IngestReport> {
  if (!Array.isArray(records)) {
    throw new ValidationError(`ingest ${collection}: expected an array of records`, { issues: [{ path: [], message: 'not an array' }] });
  }
  const good: StoredRecord[] = [];
  const bad: QuarantineRow[] = [];
  records.forEach((raw, index) => {
    const parsed = parseRecord(collection, raw);
    if (parsed.ok) {
      good.push(parsed.record);
      return;
    }
    const rescue = rescueParent(collection, raw, parsed.issues);
    if (rescue) {
      good.push(rescue.record);
      for (const child of rescue.refused) bad.push(quarantineRow(child.collection, child.raw, child.issues, now()));
    } else {
      bad.push(quarantineRow(collection, raw, parsed.issues.map((i) => ({ ...i, path: [index, ...i.path] })), now()));
    }
  });
  return applyAndQuarantine(db, collection, good, bad);
}

/**
 * Applies records that passed the read schema and quarantines the rows of those that did not,
 * in one transaction: what a pull does with a page, for records that came another way. A row
 * replaces the row of the same record (`QuarantineRow.key`, as `quarantineRows` builds them), so
 * polling the same bad record again adds nothing; an applied record leaves the quarantine. A row
 * of a parent refused only for a bad hydrated child (`rescueRefusedParents`) is applied without
 * that child, and only the child is quarantined.
 */
export async function applyReadRecords(
  db: MirrorDb,
  collection: CollectionName,
  records: readonly StoredRecord[],
  quarantine: readonly QuarantineRow[],
): Promise<IngestReport> {
  const refused = rescueRefusedParents(collection, quarantine);
  return applyAndQuarantine(db, collection, refused.rescued.length > 0 ? [...records, ...refused.rescued] : records, refused.rows);
}

/** Applies `records` and stores the quarantine rows, in one transaction. */
async function applyAndQuarantine(
  db: MirrorDb,
  collection: CollectionName,
  records: readonly StoredRecord[],
  quarantine: readonly QuarantineRow[],
): Promise<IngestReport> {
  return inTransaction(db, 'rw', applyTables(db, collection), async (db) => {
    const applied = await applyServerRecords(db, collection, records);
    await holdInQuarantine(db, quarantine);
    return { ...applied, quarantined: quarantine.length };
  });
}
