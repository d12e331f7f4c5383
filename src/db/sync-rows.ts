import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { ValidationIssue } from '../errors/index.js';

/** A stored record of any collection: wire field names, ids as canonical strings. */
export type StoredRecord = { id: Id; _v: number; _d?: number; [field: string]: unknown };

/**
 * Where a delta pull of one collection stands. `checkpoint` is the next `version_start`;
 * `cursor` is present while a traversal is under way, so an interrupted one resumes at its
 * last applied page instead of starting over.
 */
export interface CheckpointRow {
  collection: CollectionName | 'categories';
  /** `version_start` of the next traversal (ms). 0 until the first traversal completes. */
  checkpoint: number;
  /** The `forward` traversal in progress, saved in the same transaction as the page it follows. */
  cursor?: TraversalCursor | undefined;
  /**
   * The `backward` traversal in progress (a history collection's first, newest first), kept apart
   * from `cursor`: a tab of an earlier release sharing the database reads only `cursor`, and would
   * resume a backward traversal `forward` from its position, skipping every older record. It sees
   * none and starts over instead. See `savedCursor`.
   */
  backwardCursor?: TraversalCursor | undefined;
  /** When the last traversal completed (local ms). */
  lastSyncAt?: number | undefined;
  /** True once a complete traversal from `version_start` 0 has been applied. */
  initialDone: boolean;
  /** When the last reconcile sweep completed (local ms). */
  reconciledAt?: number | undefined;
  /**
   * The time (ms) of the edge a bounded first traversal paused at (a sync group with `days`): every
   * record created since is in, and the traversal's cursor (`backwardCursor`) waits for a later
   * pull to continue it, older records first. Set once: the group's first sync is done.
   */
  pausedAt?: number | undefined;
  /**
   * The time (ms) from which the collection is complete under a history window: the edge its first
   * traversal stopped at, moved later by each pruning. Records created before it are not kept
   * (except those with an edit not yet acknowledged or a conflict). Absent without a window.
   */
  historyEdge?: number | undefined;
}

/** A saved position inside a traversal (see {@link CheckpointRow}). */
export interface TraversalCursor {
  /** `version_start` the traversal was started with. */
  versionStart: number;
  /** Id of the last record of the last applied page: the next `id_start`. */
  idStart: Id | undefined;
  /** Server time (ms) when the traversal started, the upper bound of the next checkpoint. */
  startedAt: number;
  /** Highest `_v` seen so far in this traversal. */
  maxV: number;
  /** Records applied so far in this traversal (for progress). */
  records: number;
  /**
   * The traversal's order (spec: Pagination): it resumes in this one, as the spec wants the
   * direction never to change during a traversal. Absent on a cursor saved before it was recorded,
   * when every traversal ran `forward`: such a cursor resumes `forward`.
   */
  direction?: 'forward' | 'backward' | undefined;
}

/**
 * A record the server sent that failed its read schema, kept with the reason. There is one row
 * per server record (`key`): a record refused again replaces its row with what came last, and
 * the row is deleted, in the same transaction, once a version of the record at least as new as
 * the refused one is applied (fixed on the server), or once a reconcile sweep (or the category
 * tree) no longer lists it.
 */
export interface QuarantineRow {
  /**
   * Primary key: `${collection}:${id}` (like a conflict's key), or, for a record without a
   * readable id, `${collection}:?` and a hash of the record as received (see `quarantineKey`).
   */
  key: string;
  collection: CollectionName | 'categories';
  /** Its id when one could be read (canonical when it is an id). */
  id: Id | undefined;
  /** The record exactly as received (the latest refused version). */
  record: unknown;
  /** Why it was refused. */
  issues: ValidationIssue[];
  /** When it was last refused (local ms). */
  at: number;
}

/** What a local edit did to a record. */
export type OutboxOp = 'create' | 'update' | 'delete';

/** Where an outbox entry stands. */
export type OutboxState = 'pending' | 'rejected' | 'conflict';

/**
 * One record's unacknowledged local changes. Several edits of a record before a push
 * collapse into one entry: `changed` is the union of the fields the app touched and
 * `base` stays the server state the first edit was made on.
 */
export interface OutboxEntry {
  seq?: number;
  collection: CollectionName;
  id: Id;
  op: OutboxOp;
  /** Fields the app changed (wire names). */
  changed: string[];
  /** Server state the first edit was made on; null for a record created locally. */
  base: StoredRecord | null;
  /** Latest server state seen since `base` (set by pulls while the entry waits). */
  server: StoredRecord | null;
  /** Local version: increases on every edit, so a push can tell whether the entry moved under it. */
  localVersion: number;
  /** When the first edit was made (local ms). */
  createdAt: number;
  /** When the last edit was made (local ms). */
  updatedAt: number;
  state: OutboxState;
  /** The server's reason for a rejected entry, or the conflicting fields. */
  reason?: string | undefined;
  /** Push attempts that failed for this entry. */
  attempts: number;
  /**
   * True for a create whose id this mirror generated (`save()` without an id), not one the app
   * chose: a server record under it that no POST of this entry can have written is another
   * device's, which drew the same id, and the push moves this create to a fresh id (see
   * {@link MovedCreate}). Absent on other entries, and on creates saved before this field existed.
   */
  minted?: true | undefined;
  /**
   * What the last push whose outcome is unknown sent for this entry (dropped connection, cut-off
   * answer, a process that died in between): while the POST is in flight, its batch's
   * row in `_sync_inflight` holds it; the entry gets it when the outcome turns out unknown (or from a
   * row a dead process left), and loses it once a server answer acknowledges the entry (a refusal
   * applied nothing, so an earlier snapshot stays). The next push compares it with the server
   * (see `SentSnapshot`). A create that has one may have gone out: it is never moved to a
   * fresh id (see {@link MovedCreate}).
   */
  sent?: SentSnapshot | undefined;
}

/**
 * What the last push of an entry sent (write-ahead: stored before the POST, in its batch's
 * {@link InflightRow}, and moved onto the entry when the outcome is unknown), kept until the
 * server's answer settles the entry, so it survives a dropped connection, a cut-off answer, a
 * server failure after the request and a process that dies before handling the answer. It may
 * also describe a POST that never went out (a process that died before sending that batch), which
 * is harmless: it only counts when the server holds its values (and keeps a create whose id the
 * server holds as another record from being moved: it may be this device's own).
 *
 * The next push compares it with the server state: when the server holds the sent value of every
 * field in `fields`, the POST is taken as landed and the state it wrote (the server state with
 * `record` laid on it) becomes the base of everything changed since, on either side. When the
 * server has since changed one of those fields, a POST that landed cannot be told from one that
 * did not: the entry is checked against its original base, and the app's own write may then show
 * up as a change on the server's side (a conflict for the strategy to settle). Only the latest
 * push is kept: a snapshot of an earlier push that also went unanswered is replaced.
 */
export interface SentSnapshot {
  /** The record as sent (wire fields). */
  record: StoredRecord;
  /** The entry's changed fields when it was sent. */
  fields: string[];
}

/**
 * The write-ahead snapshot of one batch POST (table `_sync_inflight`, schema version 6 on): what
 * the POST carries for each of its entries, written before the POST goes out, in one row per
 * batch instead of one outbox write per entry. The row is deleted in the transaction that settles
 * the batch (acknowledged, refused); when the outcome is unknown (dropped connection, cut-off
 * answer, abort) its entries get their `sent` snapshots from it (see {@link SentSnapshot}) and it
 * is deleted. A row still there later is a push whose process died before the answer was handled:
 * the next push of its collection (and the next opening of the database) folds it into its
 * entries' `sent` snapshots first, so a POST that landed is recognised as before.
 */
export interface InflightRow {
  /** Auto-incremented. */
  key?: number;
  collection: CollectionName;
  /** The entries of the batch not settled yet, in batch order. */
  entries: InflightEntry[];
}

/** One entry of an in-flight batch: what its `SentSnapshot` would say. */
export interface InflightEntry {
  /** The outbox entry's `seq`. */
  seq: number;
  /** The POST element as sent (the snapshot's record, without `_v`). */
  wire: { id: Id; [field: string]: unknown };
  /** `_v` of the server state the element was built on (0 for a create). */
  v: number;
  /** The entry's changed fields when it was sent. */
  fields: string[];
}

/** An unresolved conflict between a local edit and a server change. */
export interface ConflictRow {
  /** `${collection}:${id}` */
  key: string;
  collection: CollectionName;
  id: Id;
  /** The record as the app left it. */
  local: StoredRecord | null;
  /** The record as the server has it now. */
  server: StoredRecord | null;
  /**
   * The server state the local edit was made on (after an earlier push that landed though its
   * answer was lost, the state that push wrote). `null` for a local create whose id the server
   * holds as another record: two unrelated records, whole (see `resolveConflict`).
   */
  base: StoredRecord | null;
  /** Fields changed on both sides to different values (or `_d` for a deletion conflict). */
  fields: string[];
  /** When it was detected (local ms). */
  at: number;
}

/**
 * A local create the push moved to a fresh id, before sending it: the server held another record
 * under the id this mirror had generated for it (another device drew the same id), and no POST of
 * it could have written that record. The create, and every pending edit that pointed at it (an
 * order's items, a stock-up's stock rows, any `id_*` field the app set to it), now use `to`; the
 * table keeps the other device's record under `from`.
 */
export interface MovedCreate {
  collection: CollectionName;
  /** The id it was created under, which the server holds as another record. */
  from: Id;
  /** The fresh id it went out under. */
  to: Id;
  /** When it was moved (local ms). */
  at: number;
}

/**
 * A local create found with no outbox entry and no copy on the server (`_v` 0: never
 * acknowledged), which no push would ever have sent: an edit whose record was written without its
 * entry (issue 39). The mirror queued it again as a create under its own id, so nothing is lost
 * (a create carries its client-generated id, so sending it again cannot duplicate it).
 */
export interface OrphanedCreate {
  collection: CollectionName;
  id: Id;
  /** When it was queued again (local ms). */
  at: number;
}

/** What the mirror keeps of the {@link OrphanedCreate}s it found: how many in all, and the latest. */
export interface OrphanedCreates {
  /** How many it has found and queued again since the database was made. */
  total: number;
  /** The latest ones (up to 20), oldest first. */
  latest: OrphanedCreate[];
}

/** Small keyed state shared by tabs: tenant, leader lease, the leader's last status. */
export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * True for a record that is not deleted: `_d` unset or 0, and, for a product, `visible` not false
 * (spec: "visible false on a product means deleted"). On other records `visible` only says whether
 * to show them (a hidden shop, register or category still exists), so apps decide about it.
 */
export function isLive(record: StoredRecord): boolean {
  return !record._d && !(record._t === 'products' && record.visible === false);
}
