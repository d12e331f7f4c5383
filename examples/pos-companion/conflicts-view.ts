import { h, replace } from '../shared/dom.js';
import { customerName, dateTime } from '../shared/format.js';
import type { ConflictRow, Mirror, StoredRecord } from '../shared/library.js';

/** Fields that are bookkeeping, not content: never offered as a choice. */
const HIDDEN = new Set(['id', 'id_c', '_v', '_t', 'pgx', '_u_dyn', 'date_created', 'date_updated']);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields where the two versions differ, the conflicting ones first. */
function differingFields(row: ConflictRow): string[] {
  const local = row.local ?? {};
  const server = row.server ?? {};
  const keys = new Set([...Object.keys(local), ...Object.keys(server)]);
  const differing = [...keys].filter((k) => !HIDDEN.has(k) && !k.startsWith('__') && !same(local[k as keyof typeof local], server[k as keyof typeof server]));
  return differing.sort((a, b) => Number(row.fields.includes(b)) - Number(row.fields.includes(a)) || a.localeCompare(b));
}

/**
 * The record a person's per-field choices make: the server's version, with the local value of
 * every field they chose to keep, and the local value of fields only this device changed.
 */
function combine(row: ConflictRow, keepLocal: ReadonlySet<string>): StoredRecord {
  const server = row.server as StoredRecord;
  const local = (row.local ?? {}) as Record<string, unknown>;
  const base = (row.base ?? {}) as Record<string, unknown>;
  const record: Record<string, unknown> = { ...server };
  for (const field of differingFields(row)) {
    const conflicting = row.fields.includes(field);
    const localChanged = !same(local[field], base[field]);
    if (conflicting ? keepLocal.has(field) : localChanged) record[field] = local[field] ?? null;
  }
  return record as StoredRecord;
}

/**
 * Conflicts: edits made here that clashed with a change on the server. Each shows both versions
 * field by field; the person keeps theirs, takes the server's, or picks per field.
 */
export function conflictsView(el: HTMLElement, mirror: Mirror, locale: string | undefined): () => void {
  const sub = mirror.live(() => mirror.db._sync_conflicts.orderBy('at').toArray()).subscribe({
    next: (rows) => {
      if (rows.length === 0) {
        replace(el, h('div', { class: 'card empty', 'data-test': 'no-conflicts' }, 'No conflicts. Edits made here and on the registers agree.'));
        return;
      }
      replace(el, h('div', { class: 'conflicts' }, rows.map((row) => conflictCard(mirror, row, locale))));
    },
    error: (e: unknown) => replace(el, h('div', { class: 'card empty' }, `Could not read conflicts: ${String(e)}`)),
  });
  return () => sub.unsubscribe();
}

function conflictCard(mirror: Mirror, row: ConflictRow, locale: string | undefined): HTMLElement {
  const keepLocal = new Set(row.fields);
  const status = h('span', { class: 'field-error' });
  const resolve = async (choice: 'local' | 'server' | 'combined') => {
    try {
      await mirror.resolveConflict(row.key, choice === 'combined' ? combine(row, keepLocal) : choice);
    } catch (error) {
      status.textContent = `Not resolved: ${(error as Error).message}`;
    }
  };
  const title = row.collection === 'customers' ? `Customer ${customerName((row.local ?? row.server ?? {}) as Record<string, unknown>)}` : `${row.collection} ${row.id}`;
  const deleted = !row.local || !row.server || Boolean(row.local._d) !== Boolean(row.server._d);

  const fieldRows = differingFields(row).map((field) => {
    const conflicting = row.fields.includes(field);
    const name = `${row.key}:${field}`;
    const choice = (side: 'local' | 'server', value: unknown) =>
      h('td', { class: conflicting ? 'choice' : 'merged' },
        conflicting
          ? h('label', { class: 'radio' },
              h('input', {
                type: 'radio', name, value: side, checked: side === 'local',
                'data-test': `choose-${side}-${field}`,
                onchange: () => (side === 'local' ? keepLocal.add(field) : keepLocal.delete(field)),
              }),
              show(field, value, locale))
          : show(field, value, locale));
    return h('tr', { class: conflicting ? 'conflicting' : undefined, 'data-test': 'conflict-field', 'data-field': field },
      h('th', { scope: 'row' }, label(field), !conflicting && h('div', { class: 'muted small' }, same(row.local?.[field], row.base?.[field]) ? 'changed on the server' : 'changed here')),
      choice('local', row.local?.[field]),
      choice('server', row.server?.[field]));
  });

  return h('article', { class: 'card conflict', 'data-test': 'conflict', 'data-key': row.key },
    h('div', { class: 'card-head' },
      h('div', null, h('h3', null, title), h('div', { class: 'muted small' }, `Found ${dateTime(row.at, locale)} · ${row.fields.length} field${row.fields.length === 1 ? '' : 's'} changed on both sides`))),
    deleted
      ? h('div', { class: 'card-body' }, row.server?._d || !row.server ? 'The server deleted this record while it was being edited here.' : 'It was deleted here while the server changed it.')
      : h('table', { class: 'conflict-table' },
          h('thead', null, h('tr', null, h('th', null, 'Field'), h('th', null, 'Your version'), h('th', null, 'Server’s version'))),
          h('tbody', null, fieldRows)),
    h('div', { class: 'actions card-body' },
      h('button', { onclick: () => void resolve('local'), 'data-test': 'keep-mine' }, 'Keep mine'),
      h('button', { onclick: () => void resolve('server'), 'data-test': 'take-server' }, 'Take the server’s'),
      !deleted && h('button', { class: 'primary', onclick: () => void resolve('combined'), 'data-test': 'apply-choices' }, 'Save my choices'),
      status));
}

function label(field: string): string {
  const text = field.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function show(field: string, value: unknown, locale: string | undefined): HTMLElement {
  if (value === null || value === undefined || value === '') return h('span', { class: 'muted' }, 'empty');
  if (field.startsWith('date_') && typeof value === 'number') return h('span', null, dateTime(value, locale));
  return h('span', null, typeof value === 'object' ? JSON.stringify(value) : String(value));
}
