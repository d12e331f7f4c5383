import { h, replace } from '../shared/dom.js';
import { customerName } from '../shared/format.js';
import { isValidationError, type Mirror, type StoredRecord } from 'pos-cloud-mirror';
import { CUSTOMER_FIELDS, type CustomerFieldName as FieldName } from './customer-fields.js';

/** Said by the name and company fields when all three are empty. */
export const NAME_REQUIRED = 'Enter a name or a company.';

/**
 * The form's own rule, before the schema's: a customer has a first or last name, or a company.
 * The service would take a record with none (only the `company` key is required, null allowed),
 * and a blank customer would reach every register. Returns the fields to mark.
 */
function missingName(values: Record<FieldName, string>): FieldName[] {
  const named = (['firstname', 'lastname', 'company'] as const).some((f) => values[f].trim() !== '');
  return named ? [] : ['firstname', 'company'];
}

/** The values that differ between the form and the record it edits ('' and null count as empty). */
function changedFields(record: StoredRecord | undefined, values: Record<FieldName, string>): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  for (const [field] of CUSTOMER_FIELDS) {
    const next = values[field].trim();
    const before = typeof record?.[field] === 'string' ? (record[field] as string) : '';
    if (next !== before) changes[field] = next === '' ? null : next;
  }
  return changes;
}

/**
 * Creates or edits a customer with `mirror.save`: the record is written on this device at once
 * (the list shows it straight away, online or not) and pushed when the network allows.
 * Validation problems are shown under their fields; nothing is saved then.
 */
export function customerForm(el: HTMLElement, mirror: Mirror, record: StoredRecord | undefined, onDone: (id: string | undefined) => void): void {
  const inputs = new Map<FieldName, HTMLInputElement>();
  const errors = new Map<FieldName, HTMLElement>();
  const general = h('div', { class: 'field-error' });
  const fields = CUSTOMER_FIELDS.map(([name, label]) => {
    const value = typeof record?.[name] === 'string' ? (record[name] as string) : '';
    const input = h('input', { name, value, type: name === 'email' ? 'email' : 'text', 'data-test': `customer-${name}` });
    const error = h('span', { class: 'field-error', 'data-test': `customer-${name}-error` });
    inputs.set(name, input);
    errors.set(name, error);
    return h('label', { class: name === 'note_internal' ? 'wide' : undefined }, label, input, error);
  });

  const save = async (event: Event) => {
    event.preventDefault();
    for (const e of errors.values()) e.textContent = '';
    for (const input of inputs.values()) input.removeAttribute('aria-invalid');
    general.textContent = '';
    const values = Object.fromEntries([...inputs].map(([k, v]) => [k, v.value])) as Record<FieldName, string>;
    const unnamed = missingName(values);
    if (unnamed.length > 0) {
      for (const field of unnamed) {
        errors.get(field)!.textContent = NAME_REQUIRED;
        inputs.get(field)!.setAttribute('aria-invalid', 'true');
      }
      inputs.get('firstname')?.focus();
      return;
    }
    const changes = changedFields(record, values);
    if (record && Object.keys(changes).length === 0) return onDone(record.id);
    try {
      // The spec requires the `company` key on a customer, null allowed.
      const id = record ? await mirror.save('customers', { id: record.id, ...changes }) : await mirror.save('customers', { company: null, ...changes });
      onDone(id);
    } catch (error) {
      if (!isValidationError(error)) {
        general.textContent = `Not saved: ${(error as Error).message}`;
        return;
      }
      for (const issue of error.issues) {
        const field = issue.path.find((p): p is FieldName => typeof p === 'string' && errors.has(p as FieldName));
        if (field) errors.get(field)!.textContent = issue.message;
        else general.textContent = issue.message;
      }
    }
  };

  replace(
    el,
    h('form', { class: 'customer-form', 'data-test': 'customer-form', onsubmit: save, novalidate: true },
      h('div', { class: 'card-head' },
        h('h2', null, record ? `Edit ${customerName(record)}` : 'New customer'),
        record && h('span', { class: 'muted small num' }, `No. ${record.id}`)),
      h('div', { class: 'form-grid card-body' }, fields),
      h('div', { class: 'card-body' }, general),
      h('div', { class: 'actions card-body' },
        h('button', { class: 'primary', type: 'submit', 'data-test': 'customer-save' }, record ? 'Save changes' : 'Add customer'),
        h('button', { type: 'button', onclick: () => onDone(undefined) }, 'Cancel'))),
  );
  inputs.get('firstname')?.focus();
}
