import { compareKeys, inRange } from './key-order.js';
import type { JournalRange, StoreSchema } from './store-format.js';

/** A store's records in ascending key order: `keys[i]` is the key of `values[i]`. */
export interface SortedRecords {
  keys: unknown[];
  values: unknown[];
}

/** What the journal left of a key: its last value, or that it was deleted. */
const DELETED = Symbol('deleted');

/**
 * The records of one object store while a restore gathers them: the snapshot's records (read in
 * ascending key order, kept as they come), and over them the journal's writes, each key's last
 * write kept in a map. Nothing is sorted or stored until {@link sorted}: the journal's puts are
 * sorted once and merged with the snapshot's records in one pass, instead of one tree insertion
 * per write.
 */
export class StoreContents {
  /** The key path values carry their generated key at (a store that generates inline keys), or undefined. */
  readonly #generatedKeyPath: string | undefined;
  readonly #base: SortedRecords = { keys: [], values: [] };
  /** Snapshot records removed by a journal's range deletion (by position in `#base`). */
  #removed: Uint8Array | undefined;
  /** The journal's writes by key: numbers and strings as themselves (a Map keeps 1 and '1' apart), other keys encoded. */
  readonly #written = new Map<unknown, unknown>();
  readonly #writtenObjects = new Map<string, [unknown, unknown]>();

  constructor(schema: StoreSchema) {
    this.#generatedKeyPath = schema.autoIncrement && typeof schema.keyPath === 'string' ? schema.keyPath : undefined;
  }

  /**
   * Appends records of the snapshot. They must follow the ones before in ascending key order (as a
   * snapshot is written); `false` when they do not, and nothing is taken.
   */
  addSnapshotRecords(keys: readonly unknown[], values: readonly unknown[]): boolean {
    const base = this.#base;
    let last = base.keys.length > 0 ? base.keys[base.keys.length - 1] : undefined;
    for (const key of keys) {
      if (last !== undefined && compareKeys(last, key) >= 0) return false;
      last = key;
    }
    for (let i = 0; i < keys.length; i++) {
      base.keys.push(keys[i]);
      base.values.push(values[i]);
    }
    return true;
  }

  /**
   * A journaled put: `values[i]` under `keys[i]`. A value put into a store that generates its
   * keys was journaled as the app gave it, without the key IndexedDB then set in it: it is set
   * here, as IndexedDB did.
   */
  put(keys: readonly unknown[], values: readonly unknown[]): void {
    const path = this.#generatedKeyPath;
    for (let i = 0; i < keys.length; i++) {
      if (path !== undefined) injectKey(values[i], path, keys[i]);
      this.#set(keys[i], values[i]);
    }
  }

  /** A journaled deletion of keys. */
  delete(keys: readonly unknown[]): void {
    for (const key of keys) this.#set(key, DELETED);
  }

  /** A journaled deletion of a key range (type 3: every record). */
  deleteRange(range: JournalRange): void {
    if (range.type === 4) return;
    for (const key of this.#written.keys()) if (inRange(key, range)) this.#written.delete(key);
    for (const [code, [key]] of this.#writtenObjects) if (inRange(key, range)) this.#writtenObjects.delete(code);
    const keys = this.#base.keys;
    if (keys.length === 0) return;
    const removed = (this.#removed ??= new Uint8Array(keys.length));
    // The snapshot's keys are sorted: the range is one run of them.
    for (let i = this.#firstInRange(range); i < keys.length && inRange(keys[i], range); i++) removed[i] = 1;
  }

  /** The store's records once every write is applied, in ascending key order. */
  sorted(): SortedRecords {
    const written: [unknown, unknown][] = [...this.#written.entries(), ...this.#writtenObjects.values()];
    const base = this.#base;
    const removed = this.#removed;
    if (written.length === 0 && removed === undefined) return base;
    written.sort((a, b) => compareKeys(a[0], b[0]));
    const out: SortedRecords = { keys: [], values: [] };
    const emit = (key: unknown, value: unknown) => {
      if (value === DELETED) return;
      out.keys.push(key);
      out.values.push(value);
    };
    let i = 0;
    let j = 0;
    while (i < base.keys.length || j < written.length) {
      const order = i >= base.keys.length ? 1 : j >= written.length ? -1 : compareKeys(base.keys[i], written[j]![0]);
      if (order < 0) {
        if (removed?.[i] !== 1) emit(base.keys[i], base.values[i]);
        i++;
      } else {
        // The journal's last write of a key is what the key holds, whatever the snapshot had.
        emit(written[j]![0], written[j]![1]);
        j++;
        if (order === 0) i++;
      }
    }
    return out;
  }

  #set(key: unknown, value: unknown): void {
    if (typeof key === 'string' || typeof key === 'number') this.#written.set(key, value);
    else this.#writtenObjects.set(encodeKey(key), [key, value]);
  }

  /** Position of the first snapshot key not below `range` (binary search). */
  #firstInRange(range: JournalRange): number {
    const keys = this.#base.keys;
    if (range.type === 3 || range.lower === undefined || range.lower === null) return 0;
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compareKeys(keys[middle], range.lower);
      if (order < 0 || (order === 0 && range.lowerOpen && range.type !== 1)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Sets `key` at `path` in `value` when nothing is there (the spec's "inject a key into a value using a key path"). */
function injectKey(value: unknown, path: string, key: unknown): void {
  const names = path.split('.');
  let at = value;
  for (const [i, name] of names.entries()) {
    if (typeof at !== 'object' || at === null) return;
    const holder = at as Record<string, unknown>;
    if (i === names.length - 1) {
      if (!Object.hasOwn(holder, name)) Object.defineProperty(holder, name, { value: key, enumerable: true, configurable: true, writable: true });
      return;
    }
    if (!Object.hasOwn(holder, name)) Object.defineProperty(holder, name, { value: {}, enumerable: true, configurable: true, writable: true });
    at = holder[name];
  }
}

/** A string that is the same for equal keys that are objects (dates, binary keys, arrays), and distinct otherwise. */
function encodeKey(key: unknown): string {
  if (key instanceof Date) return `d${key.getTime()}`;
  if (key instanceof ArrayBuffer) return `b${Buffer.from(key).toString('hex')}`;
  if (Array.isArray(key)) return `a[${key.map((element) => (typeof element === 'string' ? `s${JSON.stringify(element)}` : typeof element === 'number' ? `n${element}` : encodeKey(element))).join(',')}]`;
  return `?${String(key)}`;
}
