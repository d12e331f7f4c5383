/**
 * Stock count: a tablet app for counting a warehouse with no signal. Pick a warehouse, scan,
 * finish: the count becomes a stock-up with stock history rows that sync later.
 */
import '../shared/base.css';
import './app.css';
import { bootMirror } from '../shared/boot.js';
import { registerOfflineShell } from '../shared/offline-shell.js';
import { renderStatus } from '../shared/status-bar.js';
import type { CollectionName } from '../shared/library.js';
import { countView } from './count-view.js';
import { loadSetup, saveSetup, setupView, type CountSetup } from './setup-view.js';

const USER_AGENT = 'pos-cloud-mirror-example-inventory-count/0.1 (pos-cloud-mirror examples)';
/** What a count needs on the device; stock-ups and stock history are pushed from here too. */
const COLLECTIONS: CollectionName[] = ['shops', 'cash_registers', 'employees', 'warehouses', 'products', 'product_price_matrix', 'stockup', 'stock_history'];

const $ = (id: string) => document.getElementById(id)!;

async function main(): Promise<void> {
  void registerOfflineShell();
  const locale = navigator.language;
  const { mirror, client } = await bootMirror({ connectEl: $('connect'), userAgent: USER_AGENT, collections: COLLECTIONS, pollIntervalMs: 15_000 });
  renderStatus(mirror, $('status'), $('progress'), { collections: COLLECTIONS, hasToken: () => client.hasToken });
  const scope = mirror.db.name;

  let dispose: (() => void) | undefined;
  const showSetup = (current: CountSetup | undefined) => {
    dispose?.();
    $('warehouse-name').textContent = '';
    dispose = setupView($('view'), mirror, current, (setup) => {
      saveSetup(scope, setup);
      void showCount(setup);
    });
  };
  const showCount = async (setup: CountSetup) => {
    dispose?.();
    const warehouse = await mirror.db.warehouses.get(setup.warehouseId);
    $('warehouse-name').textContent = String(warehouse?.name ?? '');
    dispose = countView($('view'), { mirror, client, setup, scope, locale, onChangeWarehouse: () => showSetup(setup) });
  };

  const setup = loadSetup(scope);
  if (setup) await showCount(setup);
  else showSetup(undefined);
  document.documentElement.dataset.ready = 'true';
}

void main();
