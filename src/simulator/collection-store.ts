/**
 * One collection's records: generated data (built on demand from the seed, never all held at
 * once) overlaid with written records (POSTs, sales, edits). Order is by id; positions come from
 * the {@link IdIndex}, which also tells, per position, whether the record is generated data or a
 * written record (a write marks its position), so reads need no lookup to decide.
 */
import type { Id } from '../ids/id.js';
import { IdIndex, NO_BASE } from './id-index.js';
import type { SimRecord } from './record.js';
import type { SimTable } from './sim-ids.js';

/** Generated records of a collection, built on demand. */
export interface GeneratedRecords {
  /** Builds generated record `i` (0 = oldest) as a fresh object. */
  build(i: number): SimRecord;
  /**
   * One field of generated record `i` without building it, when that is cheap; `undefined`
   * means "build the record instead".
   */
  peek?(i: number, field: string): unknown;
}

/** Called after a record was stored, with the record it replaced (if any). */
export type WriteListener = (record: SimRecord, previous: SimRecord | undefined) => void;

/** Records of one collection in id order. */
export class CollectionStore {
  private readonly written = new Map<Id, SimRecord>();
  private readonly listeners: WriteListener[] = [];

  constructor(
    /** Collection (table) name, as in `_t`. */
    readonly name: SimTable,
    private readonly index: IdIndex,
    private readonly generated: GeneratedRecords,
  ) {}

  /** Number of records, deleted ones included. */
  get count(): number {
    return this.index.length;
  }

  /** Position of an id, or -1. */
  positionOf(id: Id): number {
    return this.index.find(BigInt(id));
  }

  /** The id index (for pagination). */
  get ids(): IdIndex {
    return this.index;
  }

  /** Id at a position, as a canonical string. */
  idAt(pos: number): Id {
    return this.index.keyAt(pos).toString();
  }

  /** `_v` of the record at a position. */
  versionAt(pos: number): number {
    return this.index.versionAt(pos);
  }

  /** The record at a position. Treat it as read-only: copy before changing. */
  recordAt(pos: number): SimRecord {
    const base = this.index.baseAt(pos);
    if (base !== NO_BASE) return this.generated.build(base);
    const written = this.written.get(this.idAt(pos));
    if (!written) throw new Error(`${this.name}: no record at position ${pos}`);
    return written;
  }

  /** One field of the record at a position, cheaply when the generator can peek. */
  peek(pos: number, field: string): unknown {
    const base = this.index.baseAt(pos);
    if (base !== NO_BASE) {
      const value = this.generated.peek?.(base, field);
      if (value !== undefined) return value;
    }
    return this.recordAt(pos)[field];
  }

  /** The record with this id, or undefined. */
  get(id: Id): SimRecord | undefined {
    const pos = this.positionOf(id);
    return pos < 0 ? undefined : this.recordAt(pos);
  }

  /** True when a record with this id exists. */
  has(id: Id): boolean {
    return this.positionOf(id) >= 0;
  }

  /**
   * Stores a complete record (canonical ids, `_v` already stamped), replacing any record with the
   * same id. Returns true when the id was new. A caller that has just read the record it replaces
   * (with {@link get}) passes it as `previous`, so that it is not read (for generated data: built)
   * again for the listeners; without it, put reads it itself.
   */
  put(record: SimRecord, previous?: SimRecord): boolean {
    const id = record.id as Id;
    const key = BigInt(id);
    const pos = this.index.find(key);
    const replaced = previous ?? (pos >= 0 ? this.recordAt(pos) : undefined);
    if (pos < 0) {
      this.index.insert(key, record._v as number);
    } else {
      this.index.setVersion(pos, record._v as number);
      this.index.markWritten(pos);
    }
    this.written.set(id, record);
    for (const listener of this.listeners) listener(record, replaced);
    return pos < 0;
  }

  /** Registers a listener called after every {@link put}. */
  onWrite(listener: WriteListener): void {
    this.listeners.push(listener);
  }

  /** Every record in ascending id order. */
  *records(): IterableIterator<SimRecord> {
    for (let pos = 0; pos < this.index.length; pos++) yield this.recordAt(pos);
  }
}
