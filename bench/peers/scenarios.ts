/**
 * The tenants the peers benchmark copies. Not a benchmark itself.
 */
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import type { SizeOption } from '../../src/simulator/size.js';

/** One tenant on the simulator, and which of its collections every candidate copies. */
export interface Scenario {
  label: string;
  size: SizeOption;
  collections: CollectionName[];
}

export const SCENARIOS: readonly Scenario[] = [
  // The other collections keep the `tiny` preset's few records; only customers are copied.
  { label: '100,000 customers', size: { customers: 100_000 }, collections: ['customers'] },
  // Every collection of the service; the category tree (one small request, not paged by `_v`) is left out.
  { label: 'a whole small tenant (14 collections)', size: 'small', collections: [...COLLECTIONS] },
];
