/**
 * The end of a browser soak run, once the chaos is undone (every tab thawed and online, faults
 * off, the registers stopped): rounds in which the leading tab syncs and resolves every conflict
 * for the server (as a user who keeps what the registers did), until the outbox is empty; then one
 * more sync, so the database holds the server's last state. The tabs share the database, so the
 * leader's work is every tab's.
 */
import type { Ledger } from '../soak/ledger.js';
import type { PageOutcome } from './page/soak-page.js';
import type { SoakTab } from './soak-tab.js';
import type { TabSet } from './tab-set.js';
import { play } from './users.js';

/** Most rounds of syncs before giving up (what is left is then reported as stuck). */
export const SETTLE_ROUNDS = 20;

/** How long to wait for a tab to lead once the chaos is over (ms): a lock handed on, a campaign decided. */
const LEADER_WAIT_MS = 30_000;

/** How settling went. */
export interface SettleOutcome {
  /** Rounds it took until the outbox was empty (SETTLE_ROUNDS when it never was). */
  rounds: number;
  /** Syncs that failed while settling, with the last failure. */
  failedSyncs: number;
  lastFailure?: string;
}

/** Settles the tabs (see the file's comment); opens one when none is left. */
export async function settleTabs(tabs: TabSet, ledger: Ledger, nextStep: () => number): Promise<SettleOutcome> {
  if (tabs.open.length === 0) await tabs.add();
  const outcome: SettleOutcome = { rounds: 0, failedSyncs: 0 };
  const sync = async (leader: SoakTab) => {
    const result = await leader.call<{ ran: boolean; error?: string; pending: number }>('syncNow');
    if (result.error) {
      outcome.failedSyncs++;
      outcome.lastFailure = result.error;
    }
    return result;
  };
  while (outcome.rounds < SETTLE_ROUNDS) {
    outcome.rounds++;
    const leader = await leading(tabs);
    const synced = await sync(leader);
    const resolved = await leader.call<PageOutcome>('resolveAll', { step: nextStep() });
    play(ledger, resolved.calls, nextStep());
    const left = await leader.call<{ pending: number; conflicts: number }>('status');
    if (synced.ran && !synced.error && resolved.calls.length === 0 && left.pending === 0 && left.conflicts === 0) break;
  }
  // Nothing is pushed any more: one more sync reads the server's final state.
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await sync(await leading(tabs));
    if (result.ran && !result.error) break;
  }
  return outcome;
}

/** The open tab whose status says it leads, once one does. */
async function leading(tabs: TabSet): Promise<SoakTab> {
  const until = Date.now() + LEADER_WAIT_MS;
  for (;;) {
    for (const tab of tabs.open) {
      const status = await tab.call<{ leader: boolean }>('status');
      if (status.leader) return tab;
    }
    if (Date.now() > until) throw new Error(`settling: no tab leads ${LEADER_WAIT_MS / 1000} s after the chaos ended (${tabs.open.length} open)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
