import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../../src/schema/collections.js';
import { DEFAULT_SYNC_GROUPS, groupStatuses, orderByGroups, pullSteps } from '../../../src/sync/cycle/sync-groups.js';

describe('sync groups', () => {
  it('place each of the 14 collections in exactly one default group without days, and the recent sales of the last day in one before it', () => {
    const placed = DEFAULT_SYNC_GROUPS.filter((g) => g.days === undefined).flatMap((g) => g.collections);
    expect([...placed].sort()).toEqual([...COLLECTIONS].sort());
    expect(DEFAULT_SYNC_GROUPS.map((g) => g.name)).toEqual(['reference', 'catalogue', 'recent', 'history']);
    expect(DEFAULT_SYNC_GROUPS[2]).toEqual({ name: 'recent', collections: ['orders', 'order_details'], days: 1 });
  });

  it('pull a bounded group\'s collections first bounded, then whole in their later group', () => {
    expect(pullSteps(DEFAULT_SYNC_GROUPS, ['order_details', 'orders', 'products', 'transactions'])).toEqual([
      { collection: 'products' },
      { collection: 'orders', days: 1 },
      { collection: 'order_details', days: 1 },
      { collection: 'orders' },
      { collection: 'order_details' },
      { collection: 'transactions' },
    ]);
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
      recent: { initialDone: false },
      history: { initialDone: false },
    });
    expect(groupStatuses(DEFAULT_SYNC_GROUPS, mirrored, new Set(['shops', 'cash_registers', 'orders']))).toMatchObject({ reference: { initialDone: true }, history: { initialDone: false } });
  });

  it('call a group with days complete once its collections paused at its edge, the whole group not yet', () => {
    const mirrored = ['orders', 'order_details'] as const;
    expect(groupStatuses(DEFAULT_SYNC_GROUPS, mirrored, new Set(), new Set(['orders']))).toMatchObject({ recent: { initialDone: false }, history: { initialDone: false } });
    expect(groupStatuses(DEFAULT_SYNC_GROUPS, mirrored, new Set(['order_details']), new Set(['orders']))).toMatchObject({ recent: { initialDone: true }, history: { initialDone: false } });
    expect(groupStatuses(DEFAULT_SYNC_GROUPS, mirrored, new Set(['orders', 'order_details']))).toMatchObject({ recent: { initialDone: true }, history: { initialDone: true } });
  });
});
