/**
 * Shop companion: a web app beside the registers. Live sales per register, product lookup,
 * customers (editable offline), conflict resolution and settings, over one pos-cloud-mirror.
 */
import '../shared/base.css';
import './app.css';
import { bootMirror, type BootedApp, type BootOptions } from '../shared/boot.js';
import { badge, replace } from '../shared/dom.js';
import { registerOfflineShell } from '../shared/offline-shell.js';
import { renderStatus } from '../shared/status-bar.js';
import { renderStrandedNotice } from '../shared/stranded-notice.js';
import { showViewProblem } from '../shared/view-problem.js';
import { conflictsView } from './conflicts-view.js';
import { customersView } from './customers-view.js';
import { watchRegistersWhileLeader } from './latest-orders.js';
import { productsView } from './products-view.js';
import { salesView } from './sales-view.js';
import { settingsView } from './settings-view.js';
import { COLLECTIONS, toIntlLocale, type Mirror } from 'pos-cloud-mirror';

const USER_AGENT = 'pos-cloud-mirror-example-pos-companion/0.1 (pos-cloud-mirror examples)';
const VIEWS = { sales: salesView, products: productsView, customers: customersView, conflicts: conflictsView } as const;
type ViewName = keyof typeof VIEWS | 'settings';
/** What each view shows, for the message that says it cannot. */
const SHOWS: Record<ViewName, string> = { sales: 'the sales', products: 'the product lookup', customers: 'the customers', conflicts: 'the conflicts', settings: 'the settings' };

const $ = (id: string) => document.getElementById(id)!;

async function main(): Promise<void> {
  void registerOfflineShell();
  const options: BootOptions = { connectEl: $('connect'), userAgent: USER_AGENT, pollIntervalMs: 10_000 };
  let app = await bootMirror(options);
  let stopUi = startUi(app, switchTo);

  /** Connects to another service address: the current mirror closes, one for the new address opens. */
  async function switchTo(baseUrl: string, token: string | undefined): Promise<void> {
    stopUi();
    await app.close();
    // An address in the page's `?base=` would win over the new one on a reload.
    const url = new URL(location.href);
    url.searchParams.delete('base');
    url.hash = '#sales';
    history.replaceState(null, '', url);
    // Without a token, the connect form asks for one for the new address. The tenant stays: the
    // same account at another address, whose mirror then finds the changes left under this one.
    app = await bootMirror({ ...options, connection: { baseUrl, token, tenant: app.connection.tenant } });
    stopUi = startUi(app, switchTo);
  }
  document.documentElement.dataset.ready = 'true';
}

/** Draws the app for one booted mirror; returns what stops it all (before switching addresses). */
function startUi(app: BootedApp, switchTo: (baseUrl: string, token: string | undefined) => Promise<void>): () => void {
  const { mirror, client } = app;
  // The device's language as Intl takes it: some report a tag Intl refuses ("C" in WebKitGTK under LANG=C.UTF-8).
  const locale = toIntlLocale(navigator.language);
  const openSettings = () => (location.hash = '#settings');
  const stops = [
    renderStatus(mirror, $('status'), $('progress'), {
      collections: COLLECTIONS,
      hasToken: () => client.hasToken,
      onConflicts: () => (location.hash = '#conflicts'),
      onSettings: openSettings,
      problemPanel: $('problem'),
      baseUrl: app.connection.baseUrl,
    }),
    // Changes left unsent under an address the app was switched away from, with a way to send them here.
    renderStrandedNotice(mirror, $('stranded'), locale),
    watchRegistersWhileLeader(mirror),
    showShopName(mirror),
    showConflictCount(mirror),
  ];

  let dispose: (() => void) | undefined;
  const route = () => {
    const wanted = (location.hash.slice(1) || 'sales') as ViewName;
    const name: ViewName = wanted === 'settings' || wanted in VIEWS ? wanted : 'sales';
    dispose?.();
    dispose = undefined;
    for (const a of document.querySelectorAll<HTMLAnchorElement>('#tabs a')) a.classList.toggle('active', a.dataset.view === name);
    try {
      dispose =
        name === 'settings'
          ? settingsView($('view'), {
              connection: app.connection,
              hasToken: () => client.hasToken,
              setToken: (token) => mirror.setToken(token),
              switchTo,
              unsentEdits: () => {
                const s = mirror.status.value;
                return s.pendingPushes + s.rejected + s.conflicts;
              },
            })
          : VIEWS[name]($('view'), mirror, locale);
    } catch (error) {
      // A view that fails while it is drawn says so in its place rather than leaving the page empty.
      showViewProblem($('view'), SHOWS[name], error);
    }
  };
  window.addEventListener('hashchange', route);
  route();
  return () => {
    window.removeEventListener('hashchange', route);
    dispose?.();
    for (const stop of stops) stop();
  };
}

function showShopName(mirror: Mirror): () => void {
  const sub = mirror.live(() => mirror.db.shops.toArray()).subscribe({
    next: (shops) => {
      const names = shops.filter((s) => !s._d).map((s) => String(s.name));
      $('shop-name').textContent = names.length === 1 ? names[0]! : names.length > 1 ? `${names[0]} and ${names.length - 1} more` : '';
    },
    error: () => undefined,
  });
  return () => sub.unsubscribe();
}

function showConflictCount(mirror: Mirror): () => void {
  const sub = mirror.status.subscribe((s) => {
    replace($('conflict-count'), s.conflicts > 0 ? badge(String(s.conflicts), 'bad') : '');
  });
  return () => sub.unsubscribe();
}

void main();
