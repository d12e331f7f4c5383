import { IDBKeyRange } from 'fake-indexeddb';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import type { Simulator } from '../../src/simulator/index.js';

/** Mirrors of one simulator reached at several addresses, in one IndexedDB, closed together. */
export interface AddressMirrors {
  /**
   * A mirror of `sim` at `baseUrl`, its database named after that address (no `dbName` unless
   * `extra` gives one) in `factory`: customers, warehouses and stock-ups, no categories.
   */
  at(sim: Simulator, baseUrl: string, factory: IDBFactory, extra?: Partial<MirrorOptions>): Mirror;
  closeAll(): Promise<void>;
}

/** Makes an {@link AddressMirrors} (call `closeAll` after each test). */
export function addressMirrors(): AddressMirrors {
  const made: Mirror[] = [];
  return {
    at(sim, baseUrl, factory, extra = {}) {
      const mirror = createMirror({
        baseUrl,
        token: sim.token,
        userAgent: 'pos-cloud-mirror tests (addresses)',
        indexedDB: factory,
        IDBKeyRange,
        collections: ['customers', 'warehouses', 'stockup'],
        categories: false,
        pollIntervalMs: 60_000,
        retry: { limit: 2, baseDelayMs: 1, backoffLimit: 5 },
        ...extra,
      });
      made.push(mirror);
      return mirror;
    },
    async closeAll() {
      for (const mirror of made.splice(0)) await mirror.close();
    },
  };
}
