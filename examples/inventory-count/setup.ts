import { isLive, type Mirror, type StoredRecord } from 'pos-cloud-mirror';

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
    // Asked again.
  }
  return undefined;
}

/** Remembers the setup. */
export function saveSetup(scope: string, setup: CountSetup): void {
  localStorage.setItem(key(scope), JSON.stringify(setup));
}

/** What the setup screen offers, from the local copy. */
export interface Choices {
  warehouses: StoredRecord[];
  employees: StoredRecord[];
  registers: { register: StoredRecord; shop: StoredRecord | undefined }[];
}

/** Reads the choices (a live query re-runs it when they change). */
export async function loadChoices(mirror: Mirror): Promise<Choices> {
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

/** Not deleted, and not hidden from the registers (`visible` false). */
function isShown(record: StoredRecord): boolean {
  return isLive(record) && record.visible !== false;
}
