/**
 * What every writer did during a soak run, in the order the operations were issued (`step`): each
 * field a device or a register wrote, with the value it saw before and the value it wrote; each
 * create a device was told is saved; each conflict a device recorded and how it was resolved.
 * The final checks ({@link checkSoak}) judge the server against it.
 *
 * Every value a soak writes is unique in the run (it carries its step and writer), so a write
 * whose `before` equals an earlier write's value was made by someone who had seen that earlier
 * write: it supersedes it. A value that is neither on the server nor superseded, with no conflict
 * to explain it, was lost.
 */
import type { Id } from '../../src/ids/id.js';
import type { CollectionName } from '../../src/schema/collections.js';

/** Who wrote: a device (`device 1`, `device 2`, ...) or the simulator's registers and back office. */
export type Writer = `device ${number}` | 'register';

/**
 * The field a soak writes into every record a device creates, `<step>.<n>` (the n-th record of the
 * create at that step): unique in the run, and never edited, so the record is found on the server
 * wherever its id went (a create moved to a fresh id) and a create applied twice shows as two
 * records with one marker. The service keeps fields it does not describe, and so does the mirror.
 */
export const CREATE_MARKER = 'soak_create';

/** The create marker of a record, when a device created it in this run. */
export function markerOf(record: Readonly<Record<string, unknown>> | null | undefined): string | undefined {
  const marker = record?.[CREATE_MARKER];
  return typeof marker === 'string' ? marker : undefined;
}

/** One field written by one writer, acknowledged: `save()` or `remove()` resolved, or the register's write returned. */
export interface FieldWrite {
  step: number;
  writer: Writer;
  collection: CollectionName;
  id: Id;
  /** A field name, or `_d` for a deletion (the value is then {@link DELETED}). */
  field: string;
  /** The value the writer had before (its local copy for a device, the server's for a register); null when none. */
  before: unknown;
  value: unknown;
  /** The {@link CREATE_MARKER} of the record, when a device created it in this run: the write follows it to another id. */
  marker?: string;
}

/** The value of `_d` in a {@link FieldWrite} of a deletion. */
export const DELETED = 'deleted';

/** A record a device created and was told is saved. */
export interface DeviceCreate {
  step: number;
  writer: Writer;
  collection: CollectionName;
  id: Id;
  /** Its {@link CREATE_MARKER}. */
  marker?: string;
  /** Its fields that point at a record created with it (an item's `id_order`), by that record's marker. */
  refs?: Record<string, string>;
}

/** A conflict row a device held for a record, and what became of it. */
export interface ConflictNote {
  writer: Writer;
  collection: CollectionName;
  id: Id;
  /** When the row was first seen. */
  notedAt: number;
  /** Fields changed on both sides (from the row). */
  fields: string[];
  /**
   * When it was resolved and how, with the fields that resolution settled: the device's edits of
   * them dropped (`server`) or written over the server's (`local`). Absent while open.
   */
  resolved?: { step: number; choice: 'local' | 'server'; fields: string[] };
}

/** The soak's record of writes, creates and conflicts. */
export class Ledger {
  readonly writes: FieldWrite[] = [];
  readonly creates: DeviceCreate[] = [];
  readonly conflicts: ConflictNote[] = [];
  /** Records created on the server by the registers and back office, per collection. */
  readonly registerCreates = new Map<CollectionName, number>();

  /**
   * Notes the fields of one acknowledged edit. `before` is the record as the writer had it; its
   * create marker, or `marker` for a record just created, follows the write.
   */
  wrote(step: number, writer: Writer, collection: CollectionName, id: Id, before: Record<string, unknown> | null | undefined, values: Record<string, unknown>, marker = markerOf(before)): void {
    for (const [field, value] of Object.entries(values)) {
      this.writes.push({ step, writer, collection, id, field, before: before?.[field] ?? null, value, ...(marker === undefined ? {} : { marker }) });
    }
  }

  /** Notes an acknowledged deletion (of a record with this create marker, when a device created it). */
  removed(step: number, writer: Writer, collection: CollectionName, id: Id, marker?: string): void {
    this.writes.push({ step, writer, collection, id, field: '_d', before: 0, value: DELETED, ...(marker === undefined ? {} : { marker }) });
  }

  /** Notes a record a device created (its fields go through {@link wrote}). */
  created(step: number, writer: Writer, collection: CollectionName, id: Id, marker?: string, refs?: Record<string, string>): void {
    this.creates.push({ step, writer, collection, id, ...(marker === undefined ? {} : { marker }), ...(refs && Object.keys(refs).length > 0 ? { refs } : {}) });
  }

  /** Adds what the registers created, per collection. */
  registerCreated(counts: ReadonlyMap<CollectionName, number>): void {
    for (const [collection, n] of counts) if (n > 0) this.registerCreates.set(collection, (this.registerCreates.get(collection) ?? 0) + n);
  }

  /** Notes a conflict row a device holds (once per open row). */
  conflict(step: number, writer: Writer, collection: CollectionName, id: Id, fields: readonly string[]): void {
    if (this.openConflict(writer, collection, id)) return;
    this.conflicts.push({ writer, collection, id, notedAt: step, fields: [...fields] });
  }

  /** Notes how a device resolved its open conflict on a record. */
  resolvedConflict(step: number, writer: Writer, collection: CollectionName, id: Id, choice: 'local' | 'server', fields: readonly string[]): void {
    const note = this.openConflict(writer, collection, id);
    if (note) note.resolved = { step, choice, fields: [...fields] };
  }

  private openConflict(writer: Writer, collection: CollectionName, id: Id): ConflictNote | undefined {
    return this.conflicts.find((c) => c.writer === writer && c.collection === collection && c.id === id && !c.resolved);
  }
}
