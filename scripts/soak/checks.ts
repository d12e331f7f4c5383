/**
 * The final checks of a soak run, over what the run left (the server's records, each device's
 * records and outbox, the ledger): pure functions, so that a test can hand them a state with a
 * known violation and see it reported.
 *
 * - **Creates exactly once**: every record a device created (by the id it generated, which is
 *   what makes a retried POST idempotent, or wherever its create marker went when the mirror moved
 *   it to a fresh id) is on the server, no create marker is on two records, the records created
 *   together still point at each other, and the server holds no record beyond the tenant it
 *   started with, the devices' creates and what the registers created.
 * - **No acknowledged edit lost**: every field a device or a register wrote holds that value on
 *   the server, or is explained: someone wrote over it having seen it (a later write whose
 *   `before` is this value), the device's conflict on it was resolved for the server, the record
 *   is deleted, or (where the run can tell, see `writtenBlind`) a push built before the write
 *   reached the server wrote over it. A deletion must have landed.
 * - **Every device equals the server**, record for record and field by field, tombstones included.
 * - **Nothing stuck**: every outbox is empty after settling (no pending, rejected or conflict entry).
 * - **No unhandled rejection** in the process, and no operation that threw (a valid edit refused).
 */
import type { OrphanedCreates, OutboxEntry, StoredRecord } from '../../src/db/sync-rows.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import { isTombstone } from '../../src/sync/records/index.js';
import { markerOf, type DeviceCreate, type FieldWrite, type Ledger, type Writer } from './ledger.js';
import { recordDifferences } from './record-differences.js';

/** A record as held somewhere: wire field names, an `id`. */
export type AnyRecord = Readonly<Record<string, unknown>>;

/** What one device holds after settling. */
export interface DeviceState {
  writer: Writer;
  /** How the checks name it (a browser's tab); the writer when absent. */
  label?: string;
  records: Readonly<Record<CollectionName, readonly AnyRecord[]>>;
  /** `mirror.pending()`: every outbox entry left (pending, rejected, conflict). */
  outbox: readonly OutboxEntry[];
  /** `status.orphanedCreates`: local creates the mirror found with no outbox entry and queued again. */
  orphanedCreates?: OrphanedCreates;
}

/** Everything the checks look at. */
export interface SoakState {
  /** The server's records of every collection, deleted ones included. */
  server: Readonly<Record<CollectionName, readonly AnyRecord[]>>;
  /** How many records each collection held before the run. */
  initialCounts: Readonly<Record<CollectionName, number>>;
  devices: readonly DeviceState[];
  ledger: Ledger;
  /** Reasons of the process's unhandled promise rejections. */
  unhandledRejections: readonly string[];
  /** Operations that threw where they should not have (a `save()` of a valid edit refused, ...). */
  operationErrors: readonly string[];
  /**
   * What writers did that the run did not see finish (a tab reloaded before the harness heard the
   * answer): not promised, so not checked, but a write in it that had seen an acknowledged value,
   * or a conflict it resolved, explains that value's end as the ledger's own would.
   */
  witnessed?: Ledger;
  /**
   * True for a write on the server that a push wrote over, built before the write reached the
   * server: the service has no conditional write, so a POST replaces the whole record whatever
   * was written between the pull that preceded it and its arrival. Only a run that saw every
   * request can tell (the browser soak, through its proxies); the Node soak leaves that window
   * empty instead.
   */
  writtenBlind?: (write: FieldWrite) => boolean;
}

/** Kinds of violation. */
export type ViolationKind = 'lost' | 'duplicated' | 'differs' | 'stuck' | 'orphaned' | 'unhandled' | 'failed';

/** One broken promise, said plainly. */
export interface Violation {
  kind: ViolationKind;
  message: string;
  /** The record it is about, when it is about one (for a trace of what happened to it). */
  subject?: { collection: CollectionName; id: string };
}

/** What the checks found. */
export interface CheckResult {
  violations: Violation[];
  /** Creates missing on the server, and writes neither on the server nor explained. */
  lost: number;
  /** Records on the server beyond the tenant, the devices' creates and the registers'. */
  duplicated: number;
  /** Records created by devices and found on the server. */
  createsFound: number;
  /**
   * Local creates a mirror found with no outbox entry and no server copy (`status.orphanedCreates`),
   * each named once however many devices share its database: queued again, so not lost, but each
   * is an edit written without its entry, and a violation.
   */
  orphaned: number;
  /** Writes checked, and how each one held. */
  writes: { checked: number; onServer: number; overwritten: number; droppedByConflict: number; deleted: number; writtenBlind: number };
}

/** Runs every check. */
export function checkSoak(state: SoakState): CheckResult {
  const violations: Violation[] = [];
  const server = indexServer(state.server);
  const markers = indexMarkers(state.server);
  const creates = checkCreates(state, server, markers, violations);
  const writes = checkWrites(state, server, markers, violations);
  checkDevices(state, violations);
  const orphaned = checkOrphaned(state, violations);
  for (const reason of state.unhandledRejections) violations.push({ kind: 'unhandled', message: `unhandled rejection: ${reason}` });
  for (const error of state.operationErrors) violations.push({ kind: 'failed', message: `operation failed: ${error}` });
  return {
    violations,
    lost: violations.filter((v) => v.kind === 'lost').length,
    duplicated: creates.duplicated,
    createsFound: creates.found,
    orphaned,
    writes,
  };
}

type ServerIndex = Map<CollectionName, Map<string, AnyRecord>>;

/** The server's ids of each create marker, per collection. */
type MarkerIndex = Map<CollectionName, Map<string, string[]>>;

function indexServer(records: SoakState['server']): ServerIndex {
  return new Map(COLLECTIONS.map((c) => [c, new Map((records[c] ?? []).map((r) => [String(r.id), r]))]));
}

function indexMarkers(records: SoakState['server']): MarkerIndex {
  const index: MarkerIndex = new Map(COLLECTIONS.map((c) => [c, new Map()]));
  for (const collection of COLLECTIONS) {
    for (const record of records[collection] ?? []) {
      const marker = markerOf(record);
      if (marker === undefined) continue;
      const ids = index.get(collection)!.get(marker) ?? [];
      ids.push(String(record.id));
      index.get(collection)!.set(marker, ids);
    }
  }
  return index;
}

/** Where a record of a device's create is on the server: under the id its create marker is on (a create moved to a fresh id), else its own. */
function serverId(markers: MarkerIndex, collection: CollectionName, id: string, marker: string | undefined): string {
  const ids = marker === undefined ? undefined : markers.get(collection)!.get(marker);
  return ids?.length === 1 ? ids[0]! : id;
}

/** Every device create is on the server once, with what it was created with, and no record is there that no one created. */
function checkCreates(state: SoakState, server: ServerIndex, markers: MarkerIndex, violations: Violation[]): { duplicated: number; found: number } {
  const created = new Map<CollectionName, Set<string>>();
  let found = 0;
  for (const create of state.ledger.creates) {
    const ids = created.get(create.collection) ?? new Set<string>();
    created.set(create.collection, ids);
    const id = serverId(markers, create.collection, create.id, create.marker);
    if (ids.has(id)) continue;
    ids.add(id);
    if (server.get(create.collection)!.has(id)) {
      found++;
      checkTogether(create, id, server, markers, violations);
    } else if (!droppedByConflict(state, create.writer, create.collection, create.id, undefined, create.step)) {
      violations.push({ kind: 'lost', message: `${create.writer} created ${create.collection} ${create.id} (step ${create.step}), which is not on the server`, subject: { collection: create.collection, id: create.id } });
    }
  }
  for (const collection of COLLECTIONS) {
    for (const [marker, ids] of markers.get(collection)!) {
      if (ids.length > 1) violations.push({ kind: 'duplicated', message: `${collection}: the create marked ${marker} is on the server ${ids.length} times, as ${ids.join(', ')}` });
    }
  }
  let duplicated = 0;
  for (const collection of COLLECTIONS) {
    const onServer = server.get(collection)!;
    // Every create marker on the server is one device create (a create a device made but was not told of, its page reloaded as it committed, included).
    const marked = new Set([...markers.get(collection)!.values()].flat());
    const unmarked = [...(created.get(collection) ?? [])].filter((id) => onServer.has(id) && !marked.has(id)).length;
    const fromDevices = markers.get(collection)!.size + unmarked;
    const expected = (state.initialCounts[collection] ?? 0) + (state.ledger.registerCreates.get(collection) ?? 0) + fromDevices;
    const extra = onServer.size - expected;
    if (extra > 0) {
      duplicated += extra;
      violations.push({ kind: 'duplicated', message: `${collection}: the server holds ${onServer.size} records, ${extra} more than the ${expected} made (tenant ${state.initialCounts[collection] ?? 0}, registers ${state.ledger.registerCreates.get(collection) ?? 0}, devices ${fromDevices}): a create applied twice` });
    } else if (extra < 0) {
      violations.push({ kind: 'lost', message: `${collection}: the server holds ${onServer.size} records, ${-extra} fewer than the ${expected} made` });
    }
  }
  return { duplicated, found };
}

/**
 * A record created with others points at them where it did when it was created (an item at its
 * order, a stock row at its stock-up), wherever they are now: one moved to a fresh id took along
 * what pointed at it.
 */
function checkTogether(create: DeviceCreate, id: string, server: ServerIndex, markers: MarkerIndex, violations: Violation[]): void {
  const record = server.get(create.collection)!.get(id)!;
  for (const [field, marker] of Object.entries(create.refs ?? {})) {
    const parent = markedRecord(markers, marker);
    if (parent === undefined) continue; // the parent's own absence is reported on its create
    if (String(record[field]) !== parent.id) {
      violations.push({ kind: 'lost', message: `${create.writer} created ${create.collection} ${id} (step ${create.step}) with ${field} pointing at the ${parent.collection} it was created with, now ${parent.id}; the server has ${JSON.stringify(record[field])}`, subject: { collection: create.collection, id } });
    }
  }
}

/** The collection and server id of the record carrying a create marker, when exactly one does. */
function markedRecord(markers: MarkerIndex, marker: string): { collection: CollectionName; id: string } | undefined {
  for (const [collection, byMarker] of markers) {
    const ids = byMarker.get(marker);
    if (ids?.length === 1) return { collection, id: ids[0]! };
  }
  return undefined;
}

/** Every acknowledged write is on the server or explained. */
function checkWrites(state: SoakState, server: ServerIndex, markers: MarkerIndex, violations: Violation[]): CheckResult['writes'] {
  const { ledger } = state;
  const at = (w: FieldWrite) => serverId(markers, w.collection, w.id, w.marker);
  const seen = new Set([...ledger.writes, ...(state.witnessed?.writes ?? [])].map((w) => writtenOver(w.collection, at(w), w.field, w.before)));
  const out = { checked: 0, onServer: 0, overwritten: 0, droppedByConflict: 0, deleted: 0, writtenBlind: 0 };
  const blind = (w: FieldWrite) => state.writtenBlind?.(w) === true;
  for (const w of ledger.writes) {
    out.checked++;
    const id = at(w);
    const record = server.get(w.collection)!.get(id);
    if (!record) {
      // A create the server lacks is reported once, by checkCreates.
      if (!ledger.creates.some((c) => c.collection === w.collection && (c.id === w.id || c.id === id))) violations.push({ kind: 'lost', message: `${describe(w)}: the record is not on the server`, subject: { collection: w.collection, id } });
      continue;
    }
    const deleted = isTombstone(w.collection, record as StoredRecord);
    if (w.field === '_d') {
      if (deleted) out.deleted++;
      else if (droppedByConflict(state, w.writer, w.collection, w.id, '_d', w.step)) out.droppedByConflict++;
      else if (blind(w)) out.writtenBlind++;
      else violations.push({ kind: 'lost', message: `${describe(w)}: the record is not deleted on the server, and no conflict explains it`, subject: { collection: w.collection, id } });
      continue;
    }
    if (same(record[w.field], w.value)) out.onServer++;
    else if (seen.has(writtenOver(w.collection, id, w.field, w.value))) out.overwritten++;
    else if (droppedByConflict(state, w.writer, w.collection, w.id, w.field, w.step)) out.droppedByConflict++;
    else if (deleted) out.deleted++;
    else if (blind(w)) out.writtenBlind++;
    else violations.push({ kind: 'lost', message: `${describe(w)}: the server has ${JSON.stringify(record[w.field])}, and no write made over this value nor a conflict explains it`, subject: { collection: w.collection, id } });
  }
  return out;
}

/** Every device equals the server, and has nothing left in its outbox. */
function checkDevices(state: SoakState, violations: Violation[]): void {
  for (const device of state.devices) {
    for (const collection of COLLECTIONS) {
      for (const line of recordDifferences(collection, state.server[collection] ?? [], device.records[collection] ?? [])) {
        // Each line starts with the collection and the record's id.
        const id = line.slice(collection.length + 1).split(':')[0]!;
        violations.push({ kind: 'differs', message: `${device.label ?? device.writer}: ${line}`, subject: { collection, id } });
      }
    }
    for (const entry of device.outbox) {
      violations.push({ kind: 'stuck', message: `${device.label ?? device.writer}: outbox ${entry.state} ${entry.op} of ${entry.collection} ${entry.id}${entry.reason ? ` (${entry.reason})` : ''}` });
    }
  }
}

/** A violation for each local create a device's mirror found with no outbox entry (see `CheckResult.orphaned`); returns how many. */
function checkOrphaned(state: SoakState, violations: Violation[]): number {
  const named = new Map<string, string>();
  let beyond = 0;
  for (const device of state.devices) {
    const found = device.orphanedCreates;
    if (!found) continue;
    for (const o of found.latest) named.set(`${o.collection} ${o.id}`, device.label ?? device.writer);
    beyond = Math.max(beyond, found.total - found.latest.length);
  }
  for (const [record, where] of named) {
    const [collection, id] = record.split(' ') as [CollectionName, string];
    violations.push({ kind: 'orphaned', message: `${where}: ${record}: a local create with no outbox entry (queued again by the mirror)`, subject: { collection, id } });
  }
  if (beyond > 0) violations.push({ kind: 'orphaned', message: `${beyond} more local creates with no outbox entry than status.orphanedCreates names` });
  return named.size + beyond;
}

/**
 * True when `writer` resolved a conflict on the record for the server at or after `step`,
 * settling `field` (any field when undefined): in the ledger, or among what was witnessed.
 */
function droppedByConflict(state: SoakState, writer: Writer, collection: CollectionName, id: string, field: string | undefined, step: number): boolean {
  return [state.ledger, state.witnessed].some((ledger) => ledger !== undefined && resolvedForServer(ledger, writer, collection, id, field, step));
}

function resolvedForServer(ledger: Ledger, writer: Writer, collection: CollectionName, id: string, field: string | undefined, step: number): boolean {
  return ledger.conflicts.some(
    (c) => c.writer === writer && c.collection === collection && c.id === id && c.resolved?.choice === 'server' && c.resolved.step >= step && (field === undefined || c.resolved.fields.includes(field)),
  );
}

function writtenOver(collection: CollectionName, id: string, field: string, value: unknown): string {
  return `${collection}|${id}|${field}|${JSON.stringify(value ?? null)}`;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function describe(w: FieldWrite): string {
  const what = w.field === '_d' ? 'deleted' : `wrote ${w.field} = ${JSON.stringify(w.value)} in`;
  return `${w.writer} ${what} ${w.collection} ${w.id} (step ${w.step})`;
}
