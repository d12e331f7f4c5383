import { badge, debounce, h, replace } from '../shared/dom.js';
import { customerName, quantity } from '../shared/format.js';
import { isLive, type Mirror, type OutboxState, type StoredRecord } from 'pos-cloud-mirror';
import { showLive } from '../shared/view-problem.js';
import { customerForm } from './customer-form.js';

/** Customers listed at most. */
const LIST_LIMIT = 40;

/** The customer list as the view shows it. */
interface CustomerList {
  rows: { customer: StoredRecord; state: OutboxState | undefined }[];
  total: number;
}

/**
 * Customers matching `text` (name, company, e-mail, phone, city), those with changes not yet on
 * the server first, then the newest.
 */
async function loadCustomers(mirror: Mirror, text: string): Promise<CustomerList> {
  const needle = text.trim().toLocaleLowerCase();
  const [all, pending] = await Promise.all([mirror.db.customers.toArray(), mirror.pending()]);
  // Each edit the server has not acknowledged, by record: waiting, refused or in conflict.
  const states = new Map(pending.filter((e) => e.collection === 'customers').map((e) => [e.id, e.state]));
  const matches = all.filter(
    (c) =>
      isLive(c) &&
      (needle === '' ||
        [c.firstname, c.lastname, c.company, c.email, c.phone_number, c.city].some((v) => typeof v === 'string' && v.toLocaleLowerCase().includes(needle))),
  );
  const created = (c: StoredRecord) => (typeof c.date_created === 'number' ? c.date_created : 0);
  matches.sort((a, b) => Number(states.has(b.id)) - Number(states.has(a.id)) || created(b) - created(a));
  return { rows: matches.slice(0, LIST_LIMIT).map((customer) => ({ customer, state: states.get(customer.id) })), total: matches.length };
}

/**
 * Customers: search, create and edit, online or not. A change is written on this device at once
 * and marked "waiting" until the server has it.
 */
export function customersView(el: HTMLElement, mirror: Mirror, locale: string | undefined): () => void {
  const search = h('input', { type: 'search', placeholder: 'Search name, e-mail, phone, city', 'data-test': 'customer-search' });
  const list = h('div', { 'data-test': 'customer-list' });
  const side = h('aside', { class: 'card customer-side' });
  let sub: { unsubscribe(): void } | undefined;

  const showIdle = () =>
    replace(side,
      h('div', { class: 'card-head' }, h('h2', null, 'Customer details')),
      h('div', { class: 'card-body muted' }, 'Pick a customer to edit, or add a new one. Changes are kept on this device and sent when the network is there.'),
      h('div', { class: 'card-body' }, h('button', { class: 'primary', 'data-test': 'customer-new', onclick: () => edit(undefined) }, 'New customer')));

  const edit = (customer: StoredRecord | undefined) => customerForm(side, mirror, customer, () => showIdle());

  const query = (text: string) => {
    sub?.unsubscribe();
    sub = showLive(mirror.live(() => loadCustomers(mirror, text)), 'the customers', (result) => renderList(list, result, edit, locale), (notice) => replace(list, notice));
  };
  search.addEventListener('input', debounce(() => query(search.value), 120));

  replace(
    el,
    h('div', { class: 'customers-layout' },
      h('section', { class: 'card' },
        h('div', { class: 'card-head' }, h('h2', null, 'Customers'), h('button', { onclick: () => edit(undefined) }, '+ New')),
        h('div', { class: 'card-body' }, search),
        list),
      side),
  );
  showIdle();
  query('');
  return () => sub?.unsubscribe();
}

function renderList(el: HTMLElement, result: CustomerList, edit: (c: StoredRecord) => void, locale: string | undefined): void {
  if (result.rows.length === 0) {
    replace(el, h('div', { class: 'empty' }, 'No customers match.'));
    return;
  }
  replace(
    el,
    h('table', { class: 'customers' },
      h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', null, 'Contact'), h('th', null, 'City'), h('th', null, ''))),
      h('tbody', null,
        result.rows.map(({ customer: c, state }) =>
          h('tr', { class: 'clickable', 'data-test': 'customer', 'data-customer-id': c.id, onclick: () => edit(c) },
            h('td', null, h('div', { class: 'strong', 'data-test': 'customer-name' }, customerName(c)), typeof c.company === 'string' && c.company && (c.firstname || c.lastname) ? h('div', { class: 'muted small' }, c.company) : null),
            h('td', null, h('div', null, typeof c.email === 'string' ? c.email : ''), h('div', { class: 'muted small' }, typeof c.phone_number === 'string' ? c.phone_number : '')),
            h('td', null, typeof c.city === 'string' ? c.city : ''),
            h('td', { class: 'right' }, stateBadge(state)))))),
    h('div', { class: 'list-foot muted small' }, result.total > result.rows.length ? `Showing ${result.rows.length} of ${quantity(result.total, locale)}` : `${quantity(result.total, locale)} customers`),
  );
}

function stateBadge(state: OutboxState | undefined): HTMLElement | null {
  if (state === 'pending') return badge('Waiting to send', 'warn', 'customer-state');
  if (state === 'conflict') return badge('Conflict', 'bad', 'customer-state');
  if (state === 'rejected') return badge('Refused by server', 'bad', 'customer-state');
  return null;
}
