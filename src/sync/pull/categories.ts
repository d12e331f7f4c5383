import type { MirrorDb } from '../../db/mirror-db.js';
import type { StoredRecord } from '../../db/sync-rows.js';
import { applyServerRecords, applyTables } from './apply-records.js';
import { holdInQuarantine, idOfRaw, quarantineRows } from './quarantine.js';
import type { SyncClient } from '../sync-client.js';
import { inTransaction } from '../../db/in-transaction.js';

/**
 * Categories come as one tree (no pagination, no version filter), so every pull reads the whole
 * tree: it is flattened into `db.categories` (each node keeps `id_category_parent`, `children` is
 * dropped), nodes newer than the local copy are written, and local nodes the tree no longer has
 * are removed. `categoryTree()` in the query helpers rebuilds the tree. A root the read schema
 * refuses (one bad node refuses its whole branch) is quarantined, and its nodes are kept as they
 * are locally: a branch the server still sends is not gone. The branch keeps one quarantine row
 * (keyed by its root) however often it is read. The tree comes whole, so every pull leaves in
 * quarantine exactly the branches it refused: a branch fixed (even below an unchanged root) or
 * gone from the tree leaves it.
 */
export async function pullCategories(db: MirrorDb, client: SyncClient, signal?: AbortSignal, now: () => number = Date.now): Promise<number> {
  const roots = await client.categories(signal ? { signal } : {});
  const flat = flattenCategories(roots as StoredRecord[]);
  const keep = new Set(flat.map((c) => c.id));
  const rejected = roots.rejected ?? [];
  for (const { raw } of rejected) addBranchIds(raw, keep);
  await inTransaction(db, 'rw', applyTables(db, 'categories'), async (db) => {
    await applyServerRecords(db, 'categories', flat);
    const rows = quarantineRows('categories', rejected, now());
    await holdInQuarantine(db, rows);
    // The tree comes whole: a branch it does not refuse now (fixed below its root, or gone) leaves the quarantine.
    const refusedNow = new Set(rows.map((r) => r.key));
    await db._sync_quarantine.where('collection').equals('categories').filter((r) => !refusedNow.has(r.key)).delete();
    const gone = (await db.categories.toCollection().primaryKeys()).filter((id) => !keep.has(id));
    if (gone.length > 0) await db.categories.bulkDelete(gone);
  });
  return flat.length;
}

/** Flattens a category tree depth-first; a child's parent is its place in the tree. */
export function flattenCategories(roots: readonly StoredRecord[], parent = '0'): StoredRecord[] {
  const out: StoredRecord[] = [];
  for (const node of roots) {
    const { children, ...rest } = node as StoredRecord & { children?: unknown };
    const parentId = typeof rest.id_category_parent === 'string' && rest.id_category_parent !== '0' ? rest.id_category_parent : parent;
    out.push({ ...rest, id_category_parent: parentId });
    if (Array.isArray(children) && children.length > 0) out.push(...flattenCategories(children as StoredRecord[], rest.id));
  }
  return out;
}

/** Adds the id of a node as received, and of every node below it, to `ids`. */
function addBranchIds(raw: unknown, ids: Set<string>): void {
  const id = idOfRaw(raw);
  if (id !== undefined) ids.add(id);
  const children = typeof raw === 'object' && raw !== null ? (raw as { children?: unknown }).children : undefined;
  if (Array.isArray(children)) for (const child of children) addBranchIds(child, ids);
}
