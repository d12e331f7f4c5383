/** What every part of the data generator shares: seed, tenant id, the history window and counts. */
import type { Id } from '../../ids/id.js';
import { Rng, hashString } from '../rng.js';
import type { SizeCounts } from '../size.js';

/** Shared inputs of the generator. */
export interface TenantContext {
  /** The simulator's seed. */
  readonly seed: number;
  /** The tenant (`id_c`). */
  readonly idC: Id;
  /** First instant of generated history (ms). */
  readonly from: number;
  /** Last instant of generated history (ms); only the registers' open shifts start after it, before the clock's start. */
  readonly to: number;
  /** Record counts. */
  readonly counts: SizeCounts;
  /** A random stream fixed by the seed, a tag and optional numbers (e.g. a record index). */
  rng(tag: string, ...parts: number[]): Rng;
}

/** Builds the context for a seed, the clock's start and counts. History ends an hour before the start. */
export function tenantContext(seed: number, clockStart: number, span: number, counts: SizeCounts): TenantContext {
  const to = clockStart - 3_600_000;
  const idC = String(10_000 + (Rng.of(seed, 7).uint32() % 90_000));
  const tags = new Map<string, number>();
  return {
    seed,
    idC,
    from: to - span,
    to,
    counts,
    rng(tag, ...parts) {
      let h = tags.get(tag);
      if (h === undefined) {
        h = hashString(tag);
        tags.set(tag, h);
      }
      return Rng.of(seed, h, ...parts);
    },
  };
}
