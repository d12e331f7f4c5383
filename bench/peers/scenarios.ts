/**
 * The tenants the peers benchmark copies. Not a benchmark itself.
 */
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import type { SizeOption } from '../../src/simulator/size.js';
import { smokeOr } from '../smoke.js';

/** One tenant on the simulator, and which of its collections every candidate copies. */
export interface Scenario {
  label: string;
  size: SizeOption;
  collections: CollectionName[];
}

const CUSTOMERS = smokeOr(2_000, 100_000);
const TENANT = smokeOr<'tiny' | 'small'>('tiny', 'small');

export const SCENARIOS: readonly Scenario[] = [
  // The other collections keep the `tiny` preset's few records; only customers are copied.
  { label: `${CUSTOMERS.toLocaleString('en-US')} customers`, size: { customers: CUSTOMERS }, collections: ['customers'] },
  // Every collection of the service; the category tree (one small request, not paged by `_v`) is left out.
  { label: `a whole ${TENANT} tenant (14 collections)`, size: TENANT, collections: [...COLLECTIONS] },
];
