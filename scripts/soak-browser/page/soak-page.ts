/**
 * The page every tab of the browser soak runs: an app that opens its mirror when it loads (so a
 * reloaded tab comes back as an app does), tells the harness what it sees that the harness cannot
 * (its leadership, moved creates, its end), and offers the user's actions to the harness, which
 * calls them with `evaluate` and keeps the ledger.
 *
 * Its address carries its settings: `?slot=<tab slot>&api=<the service, through the tab's own
 * proxy>&db=<the database name every tab shares>&reports=<the harness's report server>&poll=<ms>`.
 * The token comes from the app server's `config.json`, never in the address (it would show in
 * page error reports).
 *
 * Reports go by `navigator.sendBeacon`, which outlives a page that is closed or reloaded, each
 * stamped with `Date.now()` in the page: the harness's clock is the same machine's.
 */
import type { OrphanedCreates } from '../../../src/db/sync-rows.js';
import { isConnectionLost } from '../../../src/db/connection-lost.js';
import { isStorageError } from '../../../src/errors/index.js';
import { createMirror, type Mirror } from '../../../src/mirror/create-mirror.js';
import { COLLECTIONS } from '../../../src/schema/collections.js';
import { DeviceEdits, type EditIntent } from '../../soak/device-edits.js';
import type { CreateKind } from '../../soak/operations.js';
import type { EditedCollection, RemovedCollection } from '../../soak/soak-fields.js';
import { RecordingLedger, type LedgerCall } from './recording-ledger.js';

/** The writer every tab edits as: the tabs share one database, so they are one device. */
export const BROWSER_WRITER = 'device 1';

/** What a page reports to the harness; `seq` counts a session's reports, so one received twice counts once. */
export type PageReport = { session: string; slot: number; seq: number; at: number } & (
  | { kind: 'boot' }
  | { kind: 'leader'; leader: boolean }
  | { kind: 'moved'; moves: { collection: string; from: string; to: string; at: number }[] }
  | { kind: 'gone' }
  | { kind: 'notes'; calls: LedgerCall[] }
  /** An edit about to commit, as the note it would make: sent before the commit, in case a reload follows it at once. */
  | { kind: 'intent'; calls: LedgerCall[] }
);

/**
 * What an operation returns: whether it acted, and the ledger notes it made. `'lost'`: it rejected
 * because the connection to IndexedDB was lost under it (a `StorageError` whose problem is
 * `connection-lost`, or the engine's own error for it): the app told its user the edit was not
 * made, so it carries no notes.
 */
export interface PageOutcome {
  outcome: 'done' | 'nothing-to-do' | 'lost';
  calls: LedgerCall[];
}

/** Everything in the database, for the checks (read in this tab). */
export interface PageSnapshot {
  records: Record<string, Record<string, unknown>[]>;
  outbox: unknown[];
  leader: boolean;
  phase: string;
  /** `status.orphanedCreates`: local creates found with no outbox entry and queued again. */
  orphanedCreates: OrphanedCreates;
}

const params = new URLSearchParams(location.search);
const slot = Number(params.get('slot'));
const reportsUrl = params.get('reports') ?? '';
/** This page load: a tab reloaded is a new session of the same slot. */
export const session = `${slot}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** Every report this page made: a beacon is lost while the engine's offline mode is on, so the harness also reads them here. */
const sent: PageReport[] = [];

function report(body: Record<string, unknown> & { kind: PageReport['kind'] }): void {
  const entry = { ...body, session, slot, seq: sent.length, at: Date.now() } as PageReport;
  sent.push(entry);
  navigator.sendBeacon(`${reportsUrl}/report`, JSON.stringify(entry));
}

/** The reports this page made (see {@link report}). */
export function reports(): PageReport[] {
  return sent;
}

let mirror: Mirror | undefined;

/** The page's mirror, opened on load. */
export const ready: Promise<string> = (async () => {
  report({ kind: 'boot' });
  const config = (await (await fetch('/config.json')).json()) as { token: string };
  mirror = createMirror({
    baseUrl: params.get('api') ?? '',
    token: config.token,
    userAgent: 'pos-cloud-mirror browser soak (dev@example.com)',
    dbName: params.get('db') ?? 'soak',
    pollIntervalMs: Number(params.get('poll') ?? 2_000),
    timeoutMs: 10_000,
    retry: { limit: 2, baseDelayMs: 20, maxDelayMs: 200 },
  });
  let leader = false;
  let moved = '';
  mirror.status.subscribe((status) => {
    if (status.leader !== leader) {
      leader = status.leader;
      report({ kind: 'leader', leader });
    }
    const moves = JSON.stringify(status.movedCreates);
    if (moves !== moved) {
      moved = moves;
      if (status.movedCreates.length > 0) report({ kind: 'moved', moves: status.movedCreates });
    }
  });
  // The page goes (closed, reloaded): its leadership, if it had it, ends before its lock is let go.
  addEventListener('pagehide', () => report({ kind: 'gone' }));
  await mirror.start();
  return session;
})();

function opened(): Mirror {
  if (!mirror) throw new Error('soak page: the mirror is not open yet');
  return mirror;
}

/**
 * Runs one user action with a fresh recording ledger, and returns its notes. They also go to the
 * harness at once, by beacon: if the tab is reloaded before the harness hears the answer, the
 * action is not acknowledged, but what it wrote over is known (it explains, it is not checked).
 * An edit also reports what it is about to write inside its transaction, before the commit: a
 * reload right after the commit would lose the note made after it.
 */
async function act(run: (edits: DeviceEdits) => Promise<'done' | 'nothing-to-do'>): Promise<PageOutcome> {
  await ready;
  const ledger = new RecordingLedger();
  // A copy, taken now: the note made after the commit holds the same objects.
  const intent = (e: EditIntent) => report({ kind: 'intent', calls: structuredClone([['wrote', [e.step, e.writer, e.collection, e.id, e.before, e.values]]]) as LedgerCall[] });
  let outcome: 'done' | 'nothing-to-do';
  try {
    outcome = await run(new DeviceEdits(opened, BROWSER_WRITER, ledger, intent));
  } catch (error) {
    // Notes made before the failure (a resolution inside a transaction that then failed) are dropped with it.
    if (isConnectionLost(error) || (isStorageError(error) && error.problem === 'connection-lost')) return { outcome: 'lost', calls: [] };
    throw error;
  }
  if (ledger.calls.length > 0) report({ kind: 'notes', calls: ledger.calls });
  return { outcome, calls: ledger.calls };
}

/** Writes `value` into `field` of a hot record (or another one). */
export function edit(a: { step: number; collection: EditedCollection; field: string; hot: boolean; pick: number }): Promise<PageOutcome> {
  return act((edits) => edits.edit(a.step, a.collection, a.field, a.hot, a.pick));
}

/** Creates records (a customer, an order with items and a stock row, ...), in one transaction. */
export function create(a: { step: number; what: CreateKind; pick: number }): Promise<PageOutcome> {
  return act((edits) => edits.create(a.step, a.what, a.pick));
}

/** Deletes a record that is not hot. */
export function remove(a: { step: number; collection: RemovedCollection; pick: number }): Promise<PageOutcome> {
  return act((edits) => edits.remove(a.step, a.collection, a.pick));
}

/** Resolves one of the conflicts, keeping this side or the server's. */
export function resolve(a: { step: number; pick: number; choice: 'local' | 'server' }): Promise<PageOutcome> {
  return act((edits) => edits.resolve(a.step, a.pick, a.choice));
}

/** Resolves every conflict for the server (settling), noting each. */
export function resolveAll(a: { step: number }): Promise<PageOutcome> {
  return act(async (edits) => {
    for (const row of await edits.noteConflicts(a.step)) await edits.resolveRow(a.step, row, 'server');
    return 'done';
  });
}

/** One record as this tab's database holds it (undefined when it has none). */
export async function record(a: { collection: string; id: string }): Promise<Record<string, unknown> | undefined> {
  await ready;
  return opened().db.table(a.collection).get(a.id);
}

/** `syncNow()`: what it did, or the error it ended with. */
export async function syncNow(): Promise<{ ran: boolean; error?: string; pending: number }> {
  await ready;
  const m = opened();
  try {
    const report = await m.syncNow();
    return { ran: report.ran, pending: (await m.pending()).length };
  } catch (error) {
    return { ran: true, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), pending: (await m.pending()).length };
  }
}

/** The leadership and phase this tab's status shows. */
export async function status(): Promise<{ leader: boolean; phase: string; pending: number; rejected: number; conflicts: number; lastError: string | null }> {
  await ready;
  const s = opened().status.value;
  return { leader: s.leader, phase: s.phase, pending: s.pendingPushes, rejected: s.rejected, conflicts: s.conflicts, lastError: s.lastError ? `${s.lastError.name}: ${s.lastError.message}` : null };
}

/** Every record of every collection, and the outbox, as this tab reads them. */
export async function snapshot(): Promise<PageSnapshot> {
  await ready;
  const m = opened();
  const records: Record<string, Record<string, unknown>[]> = {};
  for (const collection of COLLECTIONS) records[collection] = await m.db.table(collection).toArray();
  const s = m.status.value;
  return { records, outbox: await m.pending(), leader: s.leader, phase: s.phase, orphanedCreates: s.orphanedCreates };
}

/**
 * What the page knows of its mirror without asking the database (which may be what does not
 * answer): its status and its progress, for a harness whose call into the page timed out.
 */
export async function diagnose(): Promise<Record<string, unknown>> {
  await ready;
  const m = opened();
  const s = m.status.value;
  return {
    phase: s.phase,
    leader: s.leader,
    online: s.online,
    storage: s.storage,
    pendingPushes: s.pendingPushes,
    lastError: s.lastError ? `${s.lastError.name}: ${s.lastError.message}` : null,
    lastSyncAt: s.lastSyncAt === undefined ? null : new Date(s.lastSyncAt).toISOString(),
    pullsUnderWay: Object.entries(m.progress.value.collections)
      .filter(([, c]) => c && !c.done)
      .map(([name]) => name),
  };
}

/** What a day at the register samples in a tab (`day-sampler.ts`): the storage estimate, rows per table, the sync counts. */
export interface PageFootprint {
  /** `navigator.storage.estimate().usage`, null where the engine gives none. */
  usage: number | null;
  tables: Record<string, number>;
  outbox: number;
  rejected: number;
  conflicts: number;
  quarantined: number;
}

/** This tab's {@link PageFootprint}. */
export async function footprint(): Promise<PageFootprint> {
  await ready;
  const m = opened();
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
  const tables: Record<string, number> = {};
  for (const table of m.db.tables) tables[table.name] = await table.count();
  const s = m.status.value;
  return { usage: typeof estimate?.usage === 'number' ? estimate.usage : null, tables, outbox: s.pendingPushes, rejected: s.rejected, conflicts: s.conflicts, quarantined: s.quarantined };
}
