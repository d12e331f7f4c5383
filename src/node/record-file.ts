import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';

/**
 * The files of a durable store: a 4-byte magic, then records, each its length (uint32 LE), the
 * CRC-32 of its payload (uint32 LE) and the payload, a value in V8's serialization (the structured
 * clone IndexedDB itself uses: `undefined`, nested arrays and objects survive exactly). A record
 * is written with one `write`; a torn record (a process killed mid-write) is recognised by its
 * length or checksum.
 */

const FRAME = 8;

/** Appends records to a file opened for writing. */
export class RecordWriter {
  readonly #fd: number;
  #bytes: number;

  /** Opens `path` (`flags` as `fs.open`: `'w'` to start it, `'a'` to append) and writes the magic to a new file. */
  constructor(path: string, flags: 'w' | 'a', magic: string) {
    this.#fd = openSync(path, flags);
    this.#bytes = fstatSync(this.#fd).size;
    if (this.#bytes === 0) {
      writeSync(this.#fd, Buffer.from(magic, 'latin1'));
      this.#bytes = 4;
    }
  }

  /** Size of the file so far, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Appends one record (not yet durable: see {@link sync}). */
  write(value: unknown): void {
    const payload = serialize(value);
    const record = Buffer.allocUnsafe(FRAME + payload.length);
    record.writeUInt32LE(payload.length, 0);
    record.writeUInt32LE(crc32(payload), 4);
    payload.copy(record, FRAME);
    writeSync(this.#fd, record);
    this.#bytes += record.length;
  }

  /** Makes what was written durable (`fsync`). */
  sync(): void {
    fsyncSync(this.#fd);
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/** How reading a file of records ended. */
export type ReadEnd =
  /** Every byte was a whole record. */
  | 'complete'
  /** The last record was cut short or its checksum does not match: a write the process did not finish. */
  | 'torn'
  /** A damaged record is followed by more data: not a torn write, the file is damaged. */
  | 'corrupt';

/** Reads a file of records, one at a time, without holding the whole file in memory. */
export class RecordReader {
  readonly #fd: number;
  readonly #size: number;
  #position = 4;
  #end: ReadEnd | undefined;
  /** Byte offset just past the last whole record read. */
  validBytes = 4;

  /** Opens `path`; throws when it does not start with `magic`. */
  constructor(path: string, magic: string) {
    this.#fd = openSync(path, 'r');
    this.#size = fstatSync(this.#fd).size;
    const head = Buffer.alloc(4);
    const read = readSync(this.#fd, head, 0, 4, 0);
    if (read !== 4 || head.toString('latin1') !== magic) {
      closeSync(this.#fd);
      throw new Error(`not a ${magic} file (it does not start with ${magic})`);
    }
  }

  /** How the file ended, once {@link next} has returned `undefined`. */
  get end(): ReadEnd | undefined {
    return this.#end;
  }

  /** The next record's value, or `undefined` at the end (see {@link end}). */
  next(): unknown {
    if (this.#end) return undefined;
    const remaining = this.#size - this.#position;
    if (remaining === 0) return this.#finish('complete');
    if (remaining < FRAME) return this.#finish('torn');
    const frame = Buffer.alloc(FRAME);
    readSync(this.#fd, frame, 0, FRAME, this.#position);
    const length = frame.readUInt32LE(0);
    if (length > remaining - FRAME) return this.#finish('torn');
    const payload = Buffer.allocUnsafe(length);
    readSync(this.#fd, payload, 0, length, this.#position + FRAME);
    const last = this.#position + FRAME + length === this.#size;
    if (crc32(payload) !== frame.readUInt32LE(4)) return this.#finish(last ? 'torn' : 'corrupt');
    let value: unknown;
    try {
      value = deserialize(payload);
    } catch {
      return this.#finish(last ? 'torn' : 'corrupt');
    }
    this.#position += FRAME + length;
    this.validBytes = this.#position;
    return value;
  }

  /**
   * Moves past whole records, without reading them, to the one that starts at byte `offset`;
   * false (and nothing moved) when no record starts there.
   */
  skipTo(offset: number): boolean {
    const frame = Buffer.alloc(FRAME);
    let position = this.#position;
    while (position < offset && this.#size - position >= FRAME) {
      readSync(this.#fd, frame, 0, FRAME, position);
      position += FRAME + frame.readUInt32LE(0);
    }
    if (position !== offset || offset > this.#size) return false;
    this.#position = position;
    this.validBytes = position;
    return true;
  }

  close(): void {
    closeSync(this.#fd);
  }

  #finish(end: ReadEnd): undefined {
    this.#end = end;
    return undefined;
  }
}
