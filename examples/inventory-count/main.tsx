/**
 * Stock count: a tablet app for counting a warehouse with no signal. Pick a warehouse, scan,
 * finish: the count becomes a stock-up with stock history rows that sync later. Written in React
 * on `pos-cloud-mirror/react`.
 */
import '../shared/base.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bootMirror } from '../shared/boot.js';
import { ObservableValue } from 'pos-cloud-mirror';
import { registerOfflineShell } from '../shared/offline-shell.js';
import { App, COLLECTIONS } from './app.js';

const USER_AGENT = 'pos-cloud-mirror-example-inventory-count/0.1 (pos-cloud-mirror examples)';

const $ = (id: string) => document.getElementById(id)!;

async function main(): Promise<void> {
  void registerOfflineShell();
  // The mirror opens at once (the data on this device shows offline); the provider starts
  // syncing once a token is known.
  const connected = new ObservableValue(false);
  const booted = await bootMirror({
    connectEl: $('connect'),
    userAgent: USER_AGENT,
    collections: COLLECTIONS,
    // The counts booked in a warehouse are found by its stock-ups (`booked-counts.ts`).
    indexes: { stockup: ['id_warehouse'] },
    pollIntervalMs: 15_000,
    startSync: () => connected.set(true),
  });
  createRoot($('view')).render(
    <StrictMode>
      <App booted={booted} connected={connected} shell={{ status: $('status'), progress: $('progress'), title: $('warehouse-name') }} />
    </StrictMode>,
  );
}

void main();
