import { remembersAddress, setRememberAddress, type Connection } from '../shared/connection.js';
import { h, replace } from '../shared/dom.js';

/** What the settings screen needs of the running app. */
export interface SettingsContext {
  /** The address (and tenant) the app syncs with now. */
  connection: Connection;
  /** True once a token was given. */
  hasToken(): boolean;
  /** Gives the mirror another token for the same address (a refused or replaced one). */
  setToken(token: string): void;
  /** Connects to another address: its own local copy, synced with `token`, or asking for one. */
  switchTo(baseUrl: string, token: string | undefined): Promise<void>;
  /** Changes made on this device under the current address that the service has not acknowledged (waiting, refused, in conflict). */
  unsentEdits(): number;
}

/** An absolute http(s) address, without trailing slashes, or undefined. */
function serviceAddress(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** What this device keeps, in words: the remembered address (or that there is none), never the token. */
function storedFacts(connection: Connection): HTMLElement {
  const remembered = remembersAddress();
  return h('div', { class: 'card-body', 'data-test': 'stored-facts' },
    h('h3', null, 'What this device keeps'),
    h('ul', null,
      h('li', { 'data-test': 'stored-address' },
        remembered
          ? [h('strong', null, 'Remembered: '), `the service address ${connection.baseUrl}, in this browser's local storage, so that the app opens the shop's data without a network.`]
          : [h('strong', null, 'Not remembered: '), 'the service address. The app asks for it at every start and cannot show the data on this device before.']),
      h('li', { 'data-test': 'stored-token' }, h('strong', null, 'Never stored: '), 'the API token. It stays in memory while the app is open and is asked for again after a restart.'),
      h('li', null, h('strong', null, 'Kept for offline use: '), "the shop's data (products, customers, sales and edits not sent yet) in this browser's IndexedDB. Each address keeps its own copy: changes left unsent in another address's copy are shown at the top of the app, with a button that sends them through the current one.")));
}

/** The warning shown before leaving an address whose copy holds changes not sent yet. */
function unsentWarning(from: string, to: string, unsent: number, onConfirm: () => void, onCancel: () => void): HTMLElement {
  const changes = `${unsent} change${unsent === 1 ? '' : 's'}`;
  return h('div', { class: 'notice unsent-warning', role: 'alert', 'data-test': 'settings-unsent' },
    h('div', { class: 'problem-text' },
      h('strong', null, `${changes} not sent yet. `),
      h('span', { 'data-test': 'settings-unsent-text' },
        `This device holds ${changes} made under ${from} that the service has not received. They stay in that address's copy: ` +
          `after the switch to ${to} the app lists them and offers to send them through the new address (when it serves the same shop), ` +
          'or switch back to send them.')),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-test': 'settings-confirm-switch', onclick: onConfirm }, 'Switch anyway'),
      h('button', { type: 'button', 'data-test': 'settings-cancel-switch', onclick: onCancel }, 'Stay')));
}

/**
 * Settings: the service's address and the API token, changed in the app. A new token for the same
 * address resumes a sync the service refused; another address opens its own local copy. Leaving an
 * address whose copy holds changes not sent yet is said first, and done only once confirmed. The
 * screen says what the device remembers (the address, unless turned off) and that the token is
 * never stored.
 */
export function settingsView(el: HTMLElement, ctx: SettingsContext): () => void {
  const address = h('input', { name: 'baseUrl', type: 'url', required: true, value: ctx.connection.baseUrl, 'data-test': 'settings-address', autocomplete: 'url' });
  const token = h('input', {
    name: 'token', type: 'password', autocomplete: 'off', 'data-test': 'settings-token',
    placeholder: ctx.hasToken() ? 'Leave empty to keep the current token' : 'API token',
  });
  const remember = h('input', { type: 'checkbox', name: 'remember', checked: remembersAddress(), 'data-test': 'settings-remember' });
  const addressError = h('span', { class: 'field-error', 'data-test': 'settings-address-error' });
  const tokenError = h('span', { class: 'field-error', 'data-test': 'settings-token-error' });
  const done = h('span', { class: 'muted', 'data-test': 'settings-status', role: 'status' });
  const facts = h('div');
  const drawFacts = () => replace(facts, storedFacts(ctx.connection));
  const warning = h('div');
  /** The address the person confirmed leaving unsent changes for (asked again for any other). */
  let confirmedFor: string | undefined;

  const save = async (event: Event) => {
    event.preventDefault();
    addressError.textContent = tokenError.textContent = done.textContent = '';
    const url = serviceAddress(address.value);
    if (!url) {
      addressError.textContent = 'Enter the service’s address, starting with https:// (or http://).';
      return;
    }
    replace(warning);
    const unsent = ctx.unsentEdits();
    if (url !== ctx.connection.baseUrl && unsent > 0 && confirmedFor !== url) {
      // Said before anything changes: the changes stay behind in this address's copy.
      replace(warning, unsentWarning(ctx.connection.baseUrl, url, unsent, () => {
        confirmedFor = url;
        void save(event);
      }, () => replace(warning)));
      return;
    }
    const value = token.value.trim();
    token.value = '';
    if (url !== ctx.connection.baseUrl) {
      if (!remember.checked) setRememberAddress(false, ctx.connection);
      else setRememberAddress(true, { baseUrl: url, tenant: ctx.connection.tenant });
      await ctx.switchTo(url, value || undefined);
      return;
    }
    setRememberAddress(remember.checked, ctx.connection);
    drawFacts();
    if (value) {
      ctx.setToken(value);
      done.textContent = 'Token changed: syncing with it.';
    } else if (!ctx.hasToken()) {
      tokenError.textContent = 'Enter the API token to sync.';
    } else {
      done.textContent = 'Saved.';
    }
  };

  replace(el,
    h('section', { class: 'card settings', 'data-test': 'settings' },
      h('div', { class: 'card-head' }, h('h2', null, 'Settings')),
      h('form', { class: 'card-body', onsubmit: (e: Event) => void save(e), novalidate: true },
        h('label', null, 'Service address', address, addressError),
        h('label', null, 'API token', token, tokenError),
        h('label', { class: 'check' }, remember, 'Remember the address on this device'),
        h('div', { class: 'actions' }, h('button', { class: 'primary', type: 'submit', 'data-test': 'settings-save' }, 'Save'), done),
        warning),
      facts));
  drawFacts();
  return () => undefined;
}
