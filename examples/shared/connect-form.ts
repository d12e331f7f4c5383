import { absoluteBaseUrl } from './connection.js';
import { h, replace } from './dom.js';

/** What the connect form asks for. */
export interface ConnectFormOptions {
  /** Pre-filled base URL; `undefined` asks for it too. */
  baseUrl: string | undefined;
  /** Why the form is shown (first start, or a reload that lost the in-memory token). */
  reason: string;
  onConnect(baseUrl: string, token: string): void;
}

/**
 * A small form for the base URL and API token. The token field is a password field and its value
 * goes straight to the mirror (memory only): the app never stores it.
 */
export function renderConnectForm(el: HTMLElement, options: ConnectFormOptions): void {
  const base = h('input', { name: 'baseUrl', type: 'url', required: true, placeholder: 'https://…/api/v1', value: options.baseUrl ?? '' });
  const token = h('input', { name: 'token', type: 'password', required: true, autocomplete: 'off', placeholder: 'API token' });
  const form = h(
    'form',
    {
      class: 'notice connect',
      'data-test': 'connect-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const url = base.value.trim();
        const value = token.value.trim();
        if (!url || !value) return;
        replace(el);
        options.onConnect(absoluteBaseUrl(url), value);
      },
    },
    h('span', null, options.reason),
    options.baseUrl === undefined ? base : h('span', { class: 'muted' }, options.baseUrl),
    token,
    h('button', { class: 'primary', type: 'submit' }, 'Connect'),
  );
  replace(el, form);
}
