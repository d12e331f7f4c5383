import { h, replace } from '../shared/dom.js';
import { customerName, dateTime } from '../shared/format.js';
import type { Conflict, Mirror, StoredRecord } from 'pos-cloud-mirror';
import { showLive } from '../shared/view-problem.js';
import { fieldLabel } from './customer-fields.js';

/** Fields that are bookkeeping, not content: never offered as a choice nor listed as merged. */
const HIDDEN = new Set(['id', 'id_c', '_v', '_t', 'pgx', '_u_dyn', 'date_created', 'date_updated']);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const shown = (field: string) => !HIDDEN.has(field) && !field.startsWith('__');

/** A conflict with what the two sides did to the record. */
interface ConflictView {
  row: Conflict;
  /** Fields changed on both sides to different values: the person chooses. */
  conflicting: string[];
  /** Fields only this device changed: they go to the server whatever is chosen for the others. */
  mine: string[];
  /** Fields only the server changed: the record takes them. */
  theirs: string[];
}

/**
 * Splits a conflict's fields by who changed them: `mirror.conflicts()` lists the fields this device
 * changed (`localChanged`, from the edit itself) and those the server changed since the base
 * (`serverChanged`); the fields both changed to different values are the row's `fields`.
 */
function viewOf(row: Conflict): ConflictView {
  const local = (row.local ?? {}) as Record<string, unknown>;
  const server = (row.server ?? {}) as Record<string, unknown>;
  const conflicting = row.fields.filter(shown);
  const mine = row.localChanged.filter((f) => shown(f) && !row.fields.includes(f) && !same(local[f], server[f]));
  const theirs = row.base === null ? [] : row.serverChanged.filter((f) => shown(f) && !row.fields.includes(f) && !row.localChanged.includes(f));
  return { row, conflicting, mine, theirs };
}

/**
 * The record a person's per-field choices make: the server's version, with the local value of
 * every conflicting field they chose to keep, and of every field only this device changed.
 */
function combine(view: ConflictView, keepLocal: ReadonlySet<string>): StoredRecord {
  const local = (view.row.local ?? {}) as Record<string, unknown>;
  const record: Record<string, unknown> = { ...(view.row.server as StoredRecord) };
  for (const field of [...view.conflicting.filter((f) => keepLocal.has(f)), ...view.mine]) record[field] = local[field] ?? null;
  return record as StoredRecord;
}

/** Conflicts, oldest first, each split by who changed what. */
async function loadConflicts(mirror: Mirror): Promise<ConflictView[]> {
  return (await mirror.conflicts()).map(viewOf);
}

/**
 * Conflicts: edits made here that clashed with a change on the server. Each shows the fields both
 * sides changed, to choose from, and the fields that merged by themselves; the person keeps theirs,
 * takes the server's, or picks per field, and each button says what it does to their other edits.
 */
export function conflictsView(el: HTMLElement, mirror: Mirror, locale: string | undefined): () => void {
  const render = (views: ConflictView[]) => {
    if (views.length === 0) {
      replace(el, h('div', { class: 'card empty', 'data-test': 'no-conflicts' }, 'No conflicts. Edits made here and on the registers agree.'));
      return;
    }
    replace(el, h('div', { class: 'conflicts' }, views.map((view) => conflictCard(mirror, view, locale))));
  };
  const sub = showLive(mirror.live(() => loadConflicts(mirror)), 'the conflicts', render, (notice) => replace(el, notice));
  return () => sub.unsubscribe();
}

/** "Phone", "Phone and City", "Phone, City and E-mail". */
function listOf(collection: string, fields: readonly string[]): string {
  const labels = fields.map((f) => fieldLabel(collection, f));
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) as string}`;
}

function conflictCard(mirror: Mirror, view: ConflictView, locale: string | undefined): HTMLElement {
  const { row } = view;
  const keepLocal = new Set(view.conflicting);
  const status = h('span', { class: 'field-error' });
  const resolve = async (choice: 'local' | 'server' | 'combined') => {
    try {
      await mirror.resolveConflict(row.key, choice === 'combined' ? combine(view, keepLocal) : choice);
    } catch (error) {
      status.textContent = `Not resolved: ${(error as Error).message}`;
    }
  };
  const title = row.collection === 'customers' ? `Customer ${customerName((row.local ?? row.server ?? {}) as Record<string, unknown>)}` : `${row.collection} ${row.id}`;
  const whole = !row.local || !row.server || row.base === null || Boolean(row.local._d) !== Boolean(row.server._d);
  const both = listOf(row.collection, view.conflicting);

  const fieldRows = view.conflicting.map((field) => {
    const choice = (side: 'local' | 'server', value: unknown) =>
      h('td', { class: 'choice' },
        h('label', { class: 'radio' },
          h('input', {
            type: 'radio', name: `${row.key}:${field}`, value: side, checked: side === 'local',
            'data-test': `choose-${side}-${field}`,
            onchange: () => (side === 'local' ? keepLocal.add(field) : keepLocal.delete(field)),
          }),
          show(field, value, locale)));
    return h('tr', { class: 'conflicting', 'data-test': 'conflict-field', 'data-field': field },
      h('th', { scope: 'row' }, fieldLabel(row.collection, field)),
      choice('local', row.local?.[field]),
      choice('server', row.server?.[field]));
  });

  const merged = [
    ...view.mine.map((field) => ({ field, side: 'here', value: row.local?.[field], note: 'changed here: kept, and sent to the server' })),
    ...view.theirs.map((field) => ({ field, side: 'server', value: row.server?.[field], note: 'changed on the server: taken' })),
  ];
  const mergedList = merged.length > 0 && !whole
    ? h('div', { class: 'card-body merged-fields', 'data-test': 'merged-fields' },
        h('h4', null, 'Merged by themselves'),
        h('ul', null, merged.map((m) =>
          h('li', { 'data-test': 'merged-field', 'data-field': m.field, 'data-side': m.side },
            h('strong', null, fieldLabel(row.collection, m.field)), ': ', show(m.field, m.value, locale), ' ',
            h('span', { class: 'muted small' }, `(${m.note})`)))))
    : null;

  const mineText = view.mine.length > 0 ? `your change to ${listOf(row.collection, view.mine)} is kept and sent` : 'you changed nothing else';
  const explain = whole
    ? {
        local: 'Your version of the record is kept and sent.',
        server: 'The server’s record is kept; every change made to it here is dropped.',
      }
    : {
        local: `Your ${both} is kept and sent; the rest merges as listed.`,
        server: `The server’s ${both} is kept; ${mineText}.`,
      };

  return h('article', { class: 'card conflict', 'data-test': 'conflict', 'data-key': row.key },
    h('div', { class: 'card-head' },
      h('div', null, h('h3', null, title), h('div', { class: 'muted small' },
        `Found ${dateTime(row.at, locale)} · ${whole ? 'changed here and on the server as a whole' : `${view.conflicting.length} field${view.conflicting.length === 1 ? '' : 's'} changed on both sides`}`))),
    whole
      ? h('div', { class: 'card-body' }, !row.server || row.server._d ? 'The server deleted this record while it was being edited here.' : row.base === null ? 'The server holds another record under the same number.' : 'It was deleted here while the server changed it.')
      : h('table', { class: 'conflict-table' },
          h('thead', null, h('tr', null, h('th', null, 'Changed on both sides'), h('th', null, 'Your version'), h('th', null, 'Server’s version'))),
          h('tbody', null, fieldRows)),
    mergedList,
    h('div', { class: 'card-body choices' },
      h('div', { class: 'choice-line' }, h('button', { onclick: () => void resolve('local'), 'data-test': 'keep-mine' }, 'Keep mine'), h('span', { class: 'muted small', 'data-test': 'keep-mine-explained' }, explain.local)),
      h('div', { class: 'choice-line' }, h('button', { onclick: () => void resolve('server'), 'data-test': 'take-server' }, 'Take the server’s'), h('span', { class: 'muted small', 'data-test': 'take-server-explained' }, explain.server)),
      !whole && h('div', { class: 'choice-line' }, h('button', { class: 'primary', onclick: () => void resolve('combined'), 'data-test': 'apply-choices' }, 'Save my choices'), h('span', { class: 'muted small' }, 'What you picked above; the rest merges as listed.')),
      status));
}

function show(field: string, value: unknown, locale: string | undefined): HTMLElement {
  if (value === null || value === undefined || value === '') return h('span', { class: 'muted' }, 'empty');
  if (field.startsWith('date_') && typeof value === 'number') return h('span', null, dateTime(value, locale));
  return h('span', null, typeof value === 'object' ? JSON.stringify(value) : String(value));
}
