import { ago } from './format.js';
import { badge, h, replace } from './dom.js';
import type { Mirror, SyncPhase, SyncProgress, SyncStatus } from './library.js';

const PHASES: Record<SyncPhase, { text: string; tone: 'ok' | 'warn' | 'bad' | 'info' | 'muted' }> = {
  idle: { text: 'Up to date', tone: 'ok' },
  'initial-sync': { text: 'First sync…', tone: 'info' },
  syncing: { text: 'Syncing…', tone: 'info' },
  following: { text: 'Up to date', tone: 'ok' },
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

/**
 * Renders the sync status into `bar` (badges: connection, which tab syncs, phase, waiting
 * changes, refused changes, conflicts, last sync) and the first sync's per-collection progress
 * into `progressPanel`. The "last sync" time comes from the database, so every tab shows the
 * time of the syncing tab's last run. Returns a function that stops rendering.
 */
export function renderStatus(
  mirror: Mirror,
  bar: HTMLElement,
  progressPanel: HTMLElement,
  options: {
    onConflicts?: () => void;
    hasToken: () => boolean;
    /** The collections this app mirrors, listed in the first sync's progress. */
    collections: readonly string[];
  },
): () => void {
  let status: SyncStatus = mirror.status.value;
  let lastSyncAt: number | undefined;

  const draw = () => {
    const phase = !options.hasToken() && status.phase === 'idle' ? 'stopped' : status.phase;
    const shown = PHASES[phase];
    const neverSynced = lastSyncAt === undefined && status.lastSyncAt === undefined;
    const phaseText = !options.hasToken()
      ? 'Token needed to sync'
      : neverSynced && (phase === 'idle' || phase === 'following')
        ? 'Starting first sync…'
        : shown.text;
    bar.dataset.phase = phase;
    bar.dataset.leader = String(status.leader);
    bar.dataset.online = String(status.online);
    bar.dataset.pending = String(status.pendingPushes);
    bar.dataset.conflicts = String(status.conflicts);
    bar.dataset.synced = String(lastSyncAt !== undefined);
    // This tab completed a whole sync run (pull, push, read-back) since it opened.
    bar.dataset.cycle = status.lastSyncAt === undefined ? 'none' : 'done';
    const shownSync = Math.max(lastSyncAt ?? 0, status.lastSyncAt ?? 0) || undefined;
    const conflicts = badge(`${status.conflicts} conflict${status.conflicts === 1 ? '' : 's'}`, 'bad', 'status-conflicts');
    if (options.onConflicts) {
      conflicts.classList.add('clickable');
      conflicts.addEventListener('click', options.onConflicts);
    }
    replace(
      bar,
      badge(status.online ? 'Online' : 'Offline', status.online ? 'ok' : 'warn', 'status-online'),
      options.hasToken() && badge(status.leader ? 'This tab syncs' : 'Another tab syncs', status.leader ? 'info' : 'muted', 'status-role'),
      badge(phaseText, !options.hasToken() ? 'warn' : neverSynced && shown.tone === 'ok' ? 'info' : shown.tone, 'status-phase'),
      status.pendingPushes > 0 && badge(`${status.pendingPushes} change${status.pendingPushes === 1 ? '' : 's'} waiting`, 'warn', 'status-pending'),
      status.rejected > 0 && badge(`${status.rejected} refused`, 'bad', 'status-rejected'),
      status.conflicts > 0 && conflicts,
      status.quarantined > 0 && badge(`${status.quarantined} bad records set aside`, 'muted', 'status-quarantined'),
      h('span', { class: 'last-sync', 'data-test': 'status-last-sync', title: shownSync ? new Date(shownSync).toLocaleString() : '' },
        `Last sync ${ago(shownSync, Date.now())}`),
    );
  };

  const drawProgress = (progress: SyncProgress) => {
    const started = Object.entries(progress.collections);
    const first = status.phase === 'initial-sync' && started.some(([, p]) => p && !p.done);
    progressPanel.hidden = !first;
    if (!first) return;
    const entries = options.collections.map((name) => [name, progress.collections[name as keyof SyncProgress['collections']]] as const);
    const done = entries.filter(([, p]) => p?.done).length;
    replace(
      progressPanel,
      h('div', { class: 'progress-head' },
        h('strong', null, 'Downloading the shop’s data'),
        h('span', { class: 'muted' }, `${done} of ${entries.length} lists ready`)),
      h('ul', { class: 'progress-list' },
        entries.map(([name, p]) =>
          h('li', { class: p?.done ? 'done' : p ? 'running' : 'waiting' },
            h('span', null, COLLECTION_LABELS[name] ?? name),
            h('span', { class: 'count' }, p ? `${p.records.toLocaleString()}${p.done ? ' ✓' : ' …'}` : 'waiting')))),
    );
  };

  const subs = [
    mirror.status.subscribe((s) => {
      status = s;
      draw();
      drawProgress(mirror.progress.value);
    }),
    mirror.progress.subscribe(drawProgress),
    mirror
      .live(async () => {
        const rows = await mirror.db._sync_checkpoints.toArray();
        const times = rows.map((r) => r.lastSyncAt).filter((t): t is number => typeof t === 'number');
        return times.length ? Math.max(...times) : undefined;
      })
      .subscribe({ next: (t) => { lastSyncAt = t; draw(); }, error: () => undefined }),
  ];
  const ticker = setInterval(draw, 5_000);
  return () => {
    clearInterval(ticker);
    for (const s of subs) s.unsubscribe();
  };
}
