import { DEFAULT_SYNC_GROUPS, type Mirror, type SyncStatus } from 'pos-cloud-mirror';
import { h, replace } from '../shared/dom.js';

/** The lists of the history group (orders and their items before the last day, payments, shifts, stock). */
const HISTORY_LISTS = DEFAULT_SYNC_GROUPS.find((group) => group.name === 'history')?.collections ?? [];

/**
 * What the Sales view says of its figures while a first sync runs: `recent` until the last day's
 * orders are all in (today's figures are not complete), `history` once they are and older history
 * still comes, nothing once both groups are complete.
 */
export interface SalesNote {
  state: 'recent' | 'history';
  text: string;
}

/**
 * The note for `status`, from its sync groups (`status.groups`): nothing when the mirror has no
 * `recent` group or its first sync is complete. How far the history has come is counted in
 * lists, each complete once it has been pulled to the end (`status.lastPulledAt`): a share of
 * records would need the size of lists not reached yet, which the service does not tell.
 */
export function salesNote(status: SyncStatus): SalesNote | undefined {
  const { recent, history } = status.groups;
  if (recent === undefined) return undefined;
  if (!recent.initialDone) return { state: 'recent', text: 'Today’s sales are still arriving: the figures below are not complete yet.' };
  if (history === undefined || history.initialDone) return undefined;
  const done = HISTORY_LISTS.filter((c) => status.lastPulledAt[c] !== undefined).length;
  return { state: 'history', text: `Today’s sales are in; older history is still arriving (${done} of ${HISTORY_LISTS.length} lists complete).` };
}

/** Keeps `el` showing the {@link salesNote} of the mirror's status, hidden when there is none; returns what stops it. */
export function showSalesNote(el: HTMLElement, mirror: Mirror): () => void {
  let shown: string | undefined;
  const sub = mirror.status.subscribe((status) => {
    const note = salesNote(status);
    const key = note && `${note.state}:${note.text}`;
    if (key === shown) return;
    shown = key;
    el.hidden = note === undefined;
    el.dataset.state = note?.state ?? 'complete';
    replace(el, note ? h('span', null, note.text) : null);
  });
  return () => sub.unsubscribe();
}
