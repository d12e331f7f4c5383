/**
 * Shop companion: a web app beside the registers. Live sales per register, product lookup,
 * customers (editable offline) and conflict resolution, over one pos-cloud-mirror.
 */
import '../shared/base.css';
import './app.css';
import { bootMirror } from '../shared/boot.js';
import { badge, replace } from '../shared/dom.js';
import { registerOfflineShell } from '../shared/offline-shell.js';
import { renderStatus } from '../shared/status-bar.js';
import { conflictsView } from './conflicts-view.js';
import { customersView } from './customers-view.js';
import { watchRegistersWhileLeader } from './latest-orders.js';
import { productsView } from './products-view.js';
import { salesView } from './sales-view.js';
import { COLLECTIONS, type Mirror } from '../shared/library.js';

const USER_AGENT = 'pos-cloud-mirror-example-pos-companion/0.1 (pos-cloud-mirror examples)';
const VIEWS = { sales: salesView, products: productsView, customers: customersView, conflicts: conflictsView } as const;
type ViewName = keyof typeof VIEWS;

const $ = (id: string) => document.getElementById(id)!;

async function main(): Promise<void> {
  void registerOfflineShell();
  const locale = navigator.language;
  const { mirror, client } = await bootMirror({ connectEl: $('connect'), userAgent: USER_AGENT, pollIntervalMs: 10_000 });

  renderStatus(mirror, $('status'), $('progress'), {
    collections: COLLECTIONS,
    hasToken: () => client.hasToken,
    onConflicts: () => (location.hash = '#conflicts'),
  });
  watchRegistersWhileLeader(mirror);
  showShopName(mirror);
  showConflictCount(mirror);

  let dispose: (() => void) | undefined;
  const route = () => {
    const name = (location.hash.slice(1) || 'sales') as ViewName;
    const view = VIEWS[name] ?? VIEWS.sales;
    dispose?.();
    for (const a of document.querySelectorAll<HTMLAnchorElement>('#tabs a')) a.classList.toggle('active', a.dataset.view === (VIEWS[name] ? name : 'sales'));
    dispose = view($('view'), mirror, locale);
  };
  window.addEventListener('hashchange', route);
  route();
  document.documentElement.dataset.ready = 'true';
}

function showShopName(mirror: Mirror): void {
  mirror.live(() => mirror.db.shops.toArray()).subscribe({
    next: (shops) => {
      const names = shops.filter((s) => !s._d).map((s) => String(s.name));
      $('shop-name').textContent = names.length === 1 ? names[0]! : names.length > 1 ? `${names[0]} and ${names.length - 1} more` : '';
    },
    error: () => undefined,
  });
}

function showConflictCount(mirror: Mirror): void {
  mirror.status.subscribe((s) => {
    replace($('conflict-count'), s.conflicts > 0 ? badge(String(s.conflicts), 'bad') : '');
  });
}

void main();
