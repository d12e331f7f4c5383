import { ago } from './format.js';
import { badge, h, replace } from './dom.js';
import type { Mirror, SyncPhase, SyncProgress, SyncStatus } from 'pos-cloud-mirror';
import { describeSyncProblem, type SyncError } from './sync-problem.js';

const PHASES: Record<SyncPhase, { text: string; tone: 'ok' | 'warn' | 'bad' | 'info' | 'muted' }> = {
  idle: { text: 'Up to date', tone: 'ok' },
  'initial-sync': { text: 'First sync…', tone: 'info' },
  syncing: { text: 'Syncing…', tone: 'info' },
  following: { text: 'Up to date', tone: 'ok' },
  // Offline with changes waiting says so; with nothing waiting, see phaseText.
  offline: { text: 'Changes kept on this device', tone: 'warn' },
  'auth-error': { text: 'Token refused', tone: 'bad' },
  'storage-error': { text: 'Device storage full', tone: 'bad' },
  error: { text: 'Sync problem, retrying', tone: 'bad' },
  stopped: { text: 'Not syncing', tone: 'muted' },
  closed: { text: 'Closed', tone: 'muted' },
};

/** Readable names of the collections, for the first-sync progress. */
const COLLECTION_LABELS: Record<string, string> = {
  products: 'Products',
  customers: 'Customers',
  product_price_matrix: 'Prices',
  shops: 'Shops',
  cash_registers: 'Registers',
  employees: 'Staff',
  park_locations: 'Tables and places',
  shifts: 'Shifts',
  stock_history: 'Stock movements',
  stockup: 'Stock-ups',
  transactions: 'Payments',
  warehouses: 'Warehouses',
  orders: 'Orders',
  order_details: 'Order items',
};

/** Options of {@link renderStatus}. */
export interface StatusOptions {
  onConflicts?: () => void;
  hasToken: () => boolean;
  /** The collections this app mirrors, listed in the first sync's progress. */
  collections: readonly string[];
  /** Opens the app's settings (address and token): a Settings button in the bar and in the problem notice. */
  onSettings?: () => void;
  /** Where to explain a failed sync (what went wrong, what to check); nothing is shown without it. */
  problemPanel?: HTMLElement;
  /** The service's address, named in the explanation. */
  baseUrl?: string;
}

/** What the phase badge says. */
function phaseText(phase: SyncPhase, status: SyncStatus, synced: boolean, retrying: boolean, hasToken: boolean): { text: string; tone: 'ok' | 'warn' | 'bad' | 'info' | 'muted' } {
  if (!hasToken) return { text: 'Token needed to sync', tone: 'warn' };
  if (phase === 'offline' && status.pendingPushes === 0) return { text: 'Showing the copy on this device', tone: 'muted' };
  if (!synced && (phase === 'idle' || phase === 'following')) return { text: 'Starting first sync…', tone: 'info' };
  if (retrying && phase === 'initial-sync') return { text: 'Retrying first sync…', tone: 'warn' };
  if (retrying && phase === 'syncing') return { text: 'Retrying…', tone: 'warn' };
  if (!synced && phase === 'error') return { text: 'First sync failed, retrying', tone: 'bad' };
  return PHASES[phase];
}

/**
 * When the mirrored collections were last all synced: the oldest of their last complete pulls
 * (`status.lastPulledAt`), or undefined while one of them has never completed one (the first sync
 * is still under way). One collection done is not "synced".
 */
function lastCompleteSync(status: SyncStatus, collections: readonly string[]): number | undefined {
  let oldest: number | undefined;
  for (const name of collections) {
    const t = status.lastPulledAt[name as keyof SyncStatus['lastPulledAt']];
    if (t === undefined) return undefined;
    oldest = oldest === undefined ? t : Math.min(oldest, t);
  }
  return oldest;
}

/** How long the oldest change not yet on the server has waited, when it is worth saying (a minute or more). */
function waitedFor(status: SyncStatus, now: number): string | undefined {
  const since = status.oldestPendingEditAt;
  return since !== undefined && now - since >= 60_000 ? `oldest ${ago(since, now)}` : undefined;
}

/**
 * Renders the sync status into `bar` (badges: connection, which tab syncs, phase, waiting
 * changes, refused changes, conflicts, last sync) and the first sync's per-collection progress
 * into `progressPanel`; with `options.problemPanel`, why the last sync failed and what to check,
 * until a sync succeeds. "Last sync" is when every mirrored collection was last synced
 * (`status.lastPulledAt`, which every tab reads from the database, so it shows the syncing tab's
 * runs); it is not shown while a first sync runs (the badge says so). Changes waiting say how
 * long the oldest has waited (`status.oldestPendingEditAt`). Returns a function that stops rendering.
 */
export function renderStatus(mirror: Mirror, bar: HTMLElement, progressPanel: HTMLElement, options: StatusOptions): () => void {
  let status: SyncStatus = mirror.status.value;
  let lastSyncAt: number | undefined;
  /** The last failure, kept while the mirror retries (a new run clears `lastError`) until one succeeds. */
  let problem: SyncError | undefined;
  let problemSince: number | undefined;

  const drawProblem = () => {
    const panel = options.problemPanel;
    if (!panel) return;
    const shown = problem && options.hasToken() && status.phase !== 'auth-error' && status.phase !== 'closed';
    panel.hidden = !shown;
    if (!shown || !problem) return replace(panel);
    const explained = describeSyncProblem(problem, options.baseUrl ?? 'the service', typeof location === 'undefined' ? undefined : location.origin);
    const synced = lastSyncAt !== undefined || status.lastSyncAt !== undefined;
    replace(
      panel,
      h('div', { class: 'notice problem', 'data-test': 'sync-problem' },
        h('div', { class: 'problem-text' },
          h('strong', null, synced ? 'Syncing failed. ' : 'The first sync failed. '),
          h('span', { 'data-test': 'sync-problem-reason' }, explained.reason),
          ' ',
          h('span', null, explained.advice),
          ' ',
          h('span', null, synced ? 'The data on this device stays usable; the app keeps trying.' : 'The app keeps trying.'),
          h('div', { class: 'small muted', 'data-test': 'sync-problem-detail', title: problemSince ? new Date(problemSince).toLocaleString() : '' }, explained.detail)),
        options.onSettings && h('button', { type: 'button', 'data-test': 'problem-settings', onclick: options.onSettings }, 'Change address or token')),
    );
  };

  const draw = () => {
    const hasToken = options.hasToken();
    const phase = !hasToken && status.phase === 'idle' ? 'stopped' : status.phase;
    const shownSync = Math.max(lastSyncAt ?? 0, status.lastSyncAt ?? 0) || undefined;
    const synced = shownSync !== undefined;
    const shown = phaseText(phase, status, synced, problem !== undefined, hasToken);
    bar.dataset.phase = phase;
    bar.dataset.leader = String(status.leader);
    bar.dataset.online = String(status.online);
    bar.dataset.pending = String(status.pendingPushes);
    bar.dataset.conflicts = String(status.conflicts);
    bar.dataset.synced = String(lastSyncAt !== undefined);
    bar.dataset.problem = String(problem !== undefined);
    // This tab completed a whole sync run (pull, push, read-back) since it opened.
    bar.dataset.cycle = status.lastSyncAt === undefined ? 'none' : 'done';
    const conflicts = badge(`${status.conflicts} conflict${status.conflicts === 1 ? '' : 's'}`, 'bad', 'status-conflicts');
    if (options.onConflicts) {
      conflicts.classList.add('clickable');
      conflicts.addEventListener('click', options.onConflicts);
    }
    // Beside "First sync…" a "last sync" would contradict it: collections done early have synced, the
    // shop's data as a whole has not.
    const aboutFirstSync = phase === 'initial-sync' || /first sync/i.test(shown.text);
    replace(
      bar,
      badge(status.online ? 'Online' : 'Offline', status.online ? 'ok' : 'warn', 'status-online'),
      hasToken && badge(status.leader ? 'This tab syncs' : 'Another tab syncs', status.leader ? 'info' : 'muted', 'status-role'),
      badge(shown.text, shown.tone, 'status-phase'),
      status.pendingPushes > 0 && badge([`${status.pendingPushes} change${status.pendingPushes === 1 ? '' : 's'} waiting`, waitedFor(status, Date.now())].filter(Boolean).join(', '), 'warn', 'status-pending'),
      status.rejected > 0 && badge(`${status.rejected} refused`, 'bad', 'status-rejected'),
      status.conflicts > 0 && conflicts,
      status.quarantined > 0 && badge(`${status.quarantined} bad records set aside`, 'muted', 'status-quarantined'),
      !aboutFirstSync &&
        h('span', { class: 'last-sync', 'data-test': 'status-last-sync', title: shownSync ? new Date(shownSync).toLocaleString() : '' },
          synced ? `Last sync ${ago(shownSync, Date.now())}` : 'Not synced yet'),
      options.onSettings && h('button', { type: 'button', class: 'link', 'data-test': 'open-settings', onclick: options.onSettings }, 'Settings'),
    );
    drawProblem();
  };

  const drawProgress = (progress: SyncProgress) => {
    const started = Object.entries(progress.collections);
    const first = status.phase === 'initial-sync' && started.some(([, p]) => p && !p.done);
    progressPanel.hidden = !first;
    if (!first) return;
    const entries = options.collections.map((name) => [name, progress.collections[name as keyof SyncProgress['collections']]] as const);
    const done = entries.filter(([, p]) => p?.done).length;
    const resumed = entries.find(([, p]) => p && !p.done && p.resumedAt !== undefined);
    replace(
      progressPanel,
      h('div', { class: 'progress-head' },
        h('strong', null, 'Downloading the shop’s data'),
        h('span', { class: 'muted' }, `${done} of ${entries.length} lists ready`)),
      h('div', { class: 'progress-totals' },
        h('span', { 'data-test': 'progress-records' }, `${progress.records.toLocaleString()} records so far`),
        // The service gives no count: the estimate covers the lists under way, once it has probed them.
        progress.remaining !== undefined && h('span', { 'data-test': 'progress-remaining' }, `about ${progress.remaining.toLocaleString()} left in the lists under way`),
        resumed && h('span', { class: 'muted', 'data-test': 'progress-resumed' }, `Resumed at ${resumed[1]!.resumedAt!.toLocaleString()} records of ${COLLECTION_LABELS[resumed[0]] ?? resumed[0]}, where the last visit stopped`)),
      h('ul', { class: 'progress-list' },
        entries.map(([name, p]) =>
          h('li', { class: p?.done ? 'done' : p ? 'running' : 'waiting', 'data-test': `progress-${name}`, 'data-records': String(p?.records ?? 0) },
            h('span', null, COLLECTION_LABELS[name] ?? name),
            h('span', { class: 'count' }, p ? `${p.records.toLocaleString()}${p.done ? ' ✓' : p.estimate ? ` of ~${p.estimate.total.toLocaleString()}` : ' …'}` : 'waiting')))),
    );
  };

  const subs = [
    mirror.status.subscribe((s) => {
      // A run that completes clears the problem; a new run (which clears lastError) does not.
      if (s.lastSyncAt !== undefined && s.lastSyncAt !== status.lastSyncAt) problem = undefined;
      if (s.lastError && s.phase !== 'auth-error') {
        if (!problem) problemSince = Date.now();
        problem = s.lastError;
      }
      status = s;
      lastSyncAt = lastCompleteSync(s, options.collections);
      draw();
      drawProgress(mirror.progress.value);
    }),
    mirror.progress.subscribe(drawProgress),
  ];
  const ticker = setInterval(draw, 5_000);
  return () => {
    clearInterval(ticker);
    for (const s of subs) s.unsubscribe();
    if (options.problemPanel) replace(options.problemPanel);
  };
}
