/**
 * The service's side of a browser soak run: the registers and back office of the Node soak
 * (`Registers`: edits and deletions of the records the tabs edit, deliveries, live sales), each
 * write noted with when it happened and the `_v` it got, and the other device of an id collision:
 * a record written on the server under the id of a tab's create that no POST has carried, right
 * before the first pull that can see it.
 */
import type { CollectionName } from '../../src/schema/collections.js';
import type { Simulator } from '../../src/simulator/index.js';
import { CREATE_MARKER, type FieldWrite, type Ledger } from '../soak/ledger.js';
import { Registers } from '../soak/registers.js';
import type { EditedCollection, RemovedCollection } from '../soak/soak-fields.js';
import type { ServiceWatch } from './service-watch.js';

/** When a back-office write happened (harness clock, ms) and the version it gave the record. */
export interface WriteTime {
  at: number;
  v: number;
}

/**
 * True when a write made at `time.at`, which gave its record version `time.v`, was replaced by a
 * POST built before it (see {@link BackOffice.writtenBlind}).
 */
export function replacedBlind(watch: ServiceWatch, write: FieldWrite, time: WriteTime): boolean {
  return watch.posts.some((post) => {
    if (post.collection !== write.collection || (post.endedAt ?? Number.POSITIVE_INFINITY) <= time.at) return false;
    const sent = post.records.find((r) => r.id === write.id);
    if (!sent) return false;
    const replaces = write.field === '_d' ? (sent._d ?? 0) === 0 : JSON.stringify(sent[write.field] ?? null) !== JSON.stringify(write.value ?? null);
    return replaces && watch.newestSentBefore(write.collection, write.id, post.sentAt) < time.v;
  });
}

/** A record of another device minted under the id of a tab's create. */
export interface Collision {
  collection: CollectionName;
  /** The id both creates have. */
  id: string;
  /** The tab's create's marker (`soak_create`), which must end up under another id. */
  marker: string | undefined;
  /** The other device's record, written when a pull is about to read the collection. */
  record: Record<string, unknown>;
  /** Its values that tell it from the tab's record (unique in the run): they must stay on the server. */
  values: Record<string, unknown>;
  /** When the tab's create began: a POST carrying the id since then means it went out first. */
  since: number;
  step: number;
  /** `armed` until a pull comes; `written` once on the server; `too-late` when the create had gone out first. */
  state: 'armed' | 'written' | 'too-late';
}

/** The back office of one run. */
export class BackOffice {
  readonly registers: Registers;
  readonly collisions: Collision[] = [];
  private readonly times = new Map<FieldWrite, WriteTime>();

  constructor(
    private readonly sim: Simulator,
    private readonly ledger: Ledger,
    private readonly watch: ServiceWatch,
  ) {
    this.registers = new Registers(sim, ledger);
    watch.beforeGet = (collection) => this.beforeGet(collection);
  }

  /** The back office edits a field of a hot record (or another one). */
  edit(step: number, collection: EditedCollection, field: string, hot: boolean, pick: number): boolean {
    return this.timed(() => this.registers.edit(step, collection, field, hot, pick));
  }

  /** The back office deletes a record that is not hot. */
  remove(step: number, collection: RemovedCollection, pick: number): boolean {
    return this.timed(() => this.registers.remove(step, collection, pick));
  }

  /** Mints a collision with a tab's create: `record` goes on the server under its id before the next pull of its collection. */
  collide(collision: Omit<Collision, 'state'>): void {
    this.collisions.push({ ...collision, state: 'armed' });
  }

  /**
   * True when a back-office write was replaced by a POST built before it: a POST that carried the
   * record with another value was applied after the write (its answer, or its end, came later),
   * and no tab had been sent a version of the record as new as the write's before that POST went
   * out. The service has no conditional write, so no client can keep that from happening.
   */
  writtenBlind(write: FieldWrite): boolean {
    const time = this.times.get(write);
    return time !== undefined && replacedBlind(this.watch, write, time);
  }

  /** When a back-office write happened and the version it gave its record (empty for another writer's). */
  timeOf(write: FieldWrite): { at?: number; v?: number } {
    return this.times.get(write) ?? {};
  }

  /** Runs a register write and notes when each field it wrote happened, and the record's new `_v`. */
  private timed(write: () => boolean): boolean {
    const from = this.ledger.writes.length;
    const done = write();
    for (const w of this.ledger.writes.slice(from)) {
      const v = this.sim.store.get(w.collection, w.id)?._v;
      if (typeof v === 'number') this.times.set(w, { at: Date.now(), v });
    }
    return done;
  }

  /** A pull is about to read `collection`: the collisions armed on it land first, unless their create went out already. */
  private beforeGet(collection: CollectionName): void {
    for (const c of this.collisions) {
      if (c.state !== 'armed' || c.collection !== collection) continue;
      if (this.watch.postedSince(c.collection, c.id, c.since)) {
        c.state = 'too-late';
        continue;
      }
      const record: Record<string, unknown> = { ...c.record, ...c.values, id: c.id };
      for (const field of [CREATE_MARKER, '_v', 'pgx', '_u_dyn']) delete record[field];
      for (const field of Object.keys(record)) if (field.startsWith('__')) delete record[field];
      this.sim.store.write(c.collection, record);
      this.ledger.registerCreated(new Map([[c.collection, 1]]));
      this.ledger.wrote(c.step, 'register', c.collection, c.id, null, c.values);
      c.state = 'written';
    }
  }
}
