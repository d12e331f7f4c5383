import { h, replace } from '../shared/dom.js';
import { isLive, type Mirror, type StoredRecord } from '../shared/library.js';

/** The choices made before counting, remembered on this device (no secrets in them). */
export interface CountSetup {
  warehouseId: string;
  employeeId: string;
  registerId: string;
}

const key = (scope: string) => `inventory-count:setup:${scope}`;

/** The setup remembered for this database, if complete. */
export function loadSetup(scope: string): CountSetup | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(key(scope)) ?? 'null') as Partial<CountSetup> | null;
    if (value?.warehouseId && value.employeeId && value.registerId) return value as CountSetup;
  } catch {
    // Asked again below.
  }
  return undefined;
}

/** Remembers the setup. */
export function saveSetup(scope: string, setup: CountSetup): void {
  localStorage.setItem(key(scope), JSON.stringify(setup));
}

interface Choices {
  warehouses: StoredRecord[];
  employees: StoredRecord[];
  registers: { register: StoredRecord; shop: StoredRecord | undefined }[];
}

async function loadChoices(mirror: Mirror): Promise<Choices> {
  const db = mirror.db;
  const [warehouses, employees, registers, shops] = await Promise.all([
    db.warehouses.toArray(),
    db.employees.toArray(),
    db.cash_registers.toArray(),
    db.shops.toArray(),
  ]);
  const byName = (a: StoredRecord, b: StoredRecord) => String(a.name).localeCompare(String(b.name));
  return {
    warehouses: warehouses.filter(isShown).sort(byName),
    employees: employees.filter(isShown).sort(byName),
    registers: registers.filter(isShown).sort(byName).map((register) => ({ register, shop: shops.find((s) => s.id === register.id_shop) })),
  };
}

/**
 * Pick the warehouse to count, who counts, and the register the count is booked at. Works from
 * the local copy, so it works offline once the first sync has run.
 */
export function setupView(el: HTMLElement, mirror: Mirror, current: CountSetup | undefined, onPicked: (setup: CountSetup) => void): () => void {
  let employeeId = current?.employeeId;
  let registerId = current?.registerId;
  const sub = mirror.live(() => loadChoices(mirror)).subscribe({
    next: (choices) => {
      if (choices.warehouses.length === 0) {
        replace(el, h('div', { class: 'card empty' }, 'No warehouses on this device yet. They appear after the first sync.'));
        return;
      }
      employeeId ??= choices.employees[0]?.id;
      registerId ??= choices.registers[0]?.register.id;
      const employee = h('select', { 'data-test': 'employee', onchange: (e: Event) => (employeeId = (e.target as HTMLSelectElement).value) },
        choices.employees.map((e) => h('option', { value: e.id, selected: e.id === employeeId }, String(e.name))));
      const register = h('select', { 'data-test': 'register', onchange: (e: Event) => (registerId = (e.target as HTMLSelectElement).value) },
        choices.registers.map(({ register: r, shop }) => h('option', { value: r.id, selected: r.id === registerId }, `${String(shop?.name ?? '')} · ${String(r.name)}`)));
      const pick = (warehouse: StoredRecord) => {
        if (employeeId && registerId) onPicked({ warehouseId: warehouse.id, employeeId, registerId });
      };
      replace(
        el,
        h('div', { class: 'card setup' },
          h('div', { class: 'card-head' }, h('h2', null, 'Start a count')),
          h('div', { class: 'card-body setup-fields' }, h('label', null, 'Counted by', employee), h('label', null, 'Booked at register', register))),
        h('h2', { class: 'section-title' }, 'Which warehouse?'),
        h('div', { class: 'warehouse-grid' },
          choices.warehouses.map((w) =>
            h('button', { class: 'card warehouse', 'data-test': 'warehouse', 'data-warehouse-id': w.id, onclick: () => pick(w) },
              h('strong', null, String(w.name)),
              h('span', { class: 'muted small' }, w.shared ? 'Shared warehouse' : 'Warehouse')))),
      );
    },
    error: (e: unknown) => replace(el, h('div', { class: 'card empty' }, `Could not read warehouses: ${String(e)}`)),
  });
  return () => sub.unsubscribe();
}

/** Not deleted, and not hidden from the registers (`visible` false). */
function isShown(record: StoredRecord): boolean {
  return isLive(record) && record.visible !== false;
}
