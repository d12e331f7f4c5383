/**
 * One generated table: creation times, ids and versions as typed arrays, and the records, either
 * built up front (small tables) or on demand from the seed (the big ones).
 */
import type { Id } from '../../ids/id.js';
import type { GeneratedRecords } from '../collection-store.js';
import { hasDateCreated, type SimRecord } from '../record.js';
import type { Rng } from '../rng.js';
import { tableIdOf, type SimTable } from '../sim-ids.js';
import { keysFor } from './timeline.js';

/** A generated table. */
export class TableData {
  /** Ids in ascending order (index i = the i-th oldest record). */
  readonly keys: BigUint64Array;
  /** `_v` per record; starts as the creation time, generators raise it for edited records. */
  readonly versions: Float64Array;
  private readonly idStrings: (Id | undefined)[];
  /** How records are made; set by the table's generator. */
  generated: GeneratedRecords = { build: () => { throw new Error(`${this.name}: records not generated`); } };

  constructor(
    /** Table name (`_t`). */
    readonly name: SimTable,
    /** Strictly increasing creation times. */
    readonly times: Float64Array,
    rng: Rng,
  ) {
    this.keys = keysFor(times, tableIdOf(name), rng);
    this.versions = Float64Array.from(times);
    this.idStrings = new Array<Id | undefined>(times.length);
  }

  /** Number of records. */
  get length(): number {
    return this.times.length;
  }

  /** Id of record i as a canonical string (cached). */
  id(i: number): Id {
    let id = this.idStrings[i];
    if (id === undefined) {
      id = (this.keys[i] as bigint).toString();
      this.idStrings[i] = id;
    }
    return id;
  }

  /** Makes the records up front; `build` gets the index and returns the record. */
  eager(build: (i: number) => SimRecord): SimRecord[] {
    const records = new Array<SimRecord>(this.length);
    for (let i = 0; i < this.length; i++) records[i] = build(i);
    this.generated = { build: (i) => records[i] as SimRecord };
    return records;
  }
}

/**
 * Fields every record carries, in wire order. `_v` comes from the table's versions; shops and
 * cash registers have no `date_created`, as in the spec's read shapes.
 */
export function commonFields(table: TableData, i: number, idC: Id, deletedAt = 0): SimRecord {
  const id = table.id(i);
  const record: SimRecord = {
    id,
    id_c: idC,
    _t: table.name,
    _v: table.versions[i],
    _d: deletedAt,
    pgx: `${idC}:${id}`,
  };
  if (hasDateCreated(table.name)) record.date_created = table.times[i];
  return record;
}
