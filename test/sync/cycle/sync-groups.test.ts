import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../../src/schema/collections.js';
import { DEFAULT_SYNC_GROUPS, groupStatuses, orderByGroups } from '../../../src/sync/cycle/sync-groups.js';

describe('sync groups', () => {
  it('place each of the 14 collections in exactly one default group', () => {
    const placed = DEFAULT_SYNC_GROUPS.flatMap((g) => g.collections);
    expect([...placed].sort()).toEqual([...COLLECTIONS].sort());
  });

  it('order the mirrored collections by group, leaving out those the mirror does not keep', () => {
    expect(orderByGroups(DEFAULT_SYNC_GROUPS, ['order_details', 'orders', 'products', 'shops'])).toEqual(['shops', 'products', 'orders', 'order_details']);
    expect(orderByGroups(DEFAULT_SYNC_GROUPS, [...COLLECTIONS]).slice(0, 5)).toEqual(['shops', 'cash_registers', 'warehouses', 'employees', 'park_locations']);
  });

  it('call a group complete once every collection of it the mirror keeps is, and one with none of them at once', () => {
    const mirrored = ['shops', 'cash_registers', 'orders', 'order_details'] as const;
    expect(groupStatuses(DEFAULT_SYNC_GROUPS, mirrored, new Set(['shops']))).toEqual({
      reference: { initialDone: false },
      catalogue: { initialDone: true },
      history: { initialDone: false },
    });
    expect(groupStatuses(DEFAULT_SYNC_GROUPS, mirrored, new Set(['shops', 'cash_registers', 'orders']))).toMatchObject({ reference: { initialDone: true }, history: { initialDone: false } });
  });
});
