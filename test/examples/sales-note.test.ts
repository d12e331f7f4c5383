import { describe, expect, it } from 'vitest';
import { salesNote } from '../../examples/pos-companion/sales-note.js';
import { initialStatus, type SyncStatus } from '../../src/mirror/status.js';

const groups = (recent: boolean, history: boolean) => ({ reference: { initialDone: true }, catalogue: { initialDone: true }, recent: { initialDone: recent }, history: { initialDone: history } });
const status = (patch: Partial<SyncStatus>): SyncStatus => ({ ...initialStatus(true), ...patch });

describe('salesNote', () => {
  it('says today’s sales are still arriving until the recent group is complete', () => {
    expect(salesNote(status({ groups: groups(false, false) }))).toEqual({ state: 'recent', text: 'Today’s sales are still arriving: the figures below are not complete yet.' });
  });

  it('says the older history is still arriving once the recent group is complete, counting the history lists pulled to the end', () => {
    const lastPulledAt = { shops: 1, products: 1, transactions: 1, shifts: 1 };
    expect(salesNote(status({ groups: groups(true, false), lastPulledAt }))).toEqual({
      state: 'history',
      text: 'Today’s sales are in; older history is still arriving (2 of 6 lists complete).',
    });
  });

  it('says nothing once the history is complete, nor for a mirror without a recent group', () => {
    expect(salesNote(status({ groups: groups(true, true) }))).toBeUndefined();
    expect(salesNote(status({ groups: { everything: { initialDone: false } } }))).toBeUndefined();
  });
});
