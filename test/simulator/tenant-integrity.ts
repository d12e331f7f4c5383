/** Referential integrity and cross-table consistency checks of a simulator's data. */
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import type { SimRecord, Simulator } from '../../src/simulator/index.js';

/** Where each reference field points. */
const TARGET: Record<string, string> = {
  id_shop: 'shops',
  id_cash_register: 'cash_registers',
  id_shift: 'shifts',
  id_employee: 'employees',
  id_employee_served: 'employees',
  id_park_location: 'park_locations',
  id_customer: 'customers',
  id_order: 'orders',
  id_product: 'products',
  id_record: 'products',
  id_category: 'categories',
  id_category_parent: 'categories',
  id_category_sort_after: 'categories',
  id_warehouse: 'warehouses',
  id_stockup: 'stockup',
  id_order_details_parent: 'order_details',
  id_canceled_order: 'orders',
  id_superseded: 'orders',
};
/** References to tables the service does not expose: always "none". */
const NONE_ONLY = new Set(['id_address_invoice', 'id_tax_report', 'id_address_delivery', 'id_shipping', 'id_exec_rule', 'id_tax_rules_group', 'id_global_product_code', 'id_discount_group', 'id_supplier']);
/** References that must point at a record (the spec lists them as required). */
const REQUIRED: Partial<Record<CollectionName, string[]>> = {
  orders: ['id_shop', 'id_cash_register', 'id_shift', 'id_employee', 'id_employee_served'],
  order_details: ['id_order', 'id_shop', 'id_cash_register', 'id_shift', 'id_product', 'id_category', 'id_employee', 'id_warehouse'],
  stock_history: ['id_employee', 'id_shop', 'id_warehouse', 'id_record', 'id_cash_register'],
  transactions: ['id_employee', 'id_shop', 'id_order', 'id_shift', 'id_cash_register'],
  stockup: ['id_cash_register', 'id_employee', 'id_shop', 'id_warehouse'],
  product_price_matrix: ['id_product'],
  cash_registers: ['id_shop'],
  shifts: ['id_cash_register', 'id_shop', 'id_employee'],
  products: ['id_category'],
};

export type Tables = Record<string, Map<string, SimRecord>>;

export function snapshot(sim: Simulator): Tables {
  const tables: Tables = {};
  for (const name of [...COLLECTIONS, 'categories'] as const) tables[name] = new Map(sim.store.list(name).map((r) => [r.id as string, r]));
  return tables;
}

export function integrityProblems(tables: Tables): string[] {
  const problems: string[] = [];
  for (const [table, records] of Object.entries(tables)) {
    for (const record of records.values()) {
      for (const [field, value] of Object.entries(record)) {
        if (!field.startsWith('id_') || field === 'id_c' || field === 'id_payment') continue;
        const none = value === null || value === '0';
        if (NONE_ONLY.has(field)) {
          if (!none) problems.push(`${table}.${field} = ${String(value)} should be none`);
          continue;
        }
        const target = TARGET[field];
        if (!target) {
          problems.push(`${table}.${field}: unknown reference field`);
          continue;
        }
        if (none) {
          if (REQUIRED[table as CollectionName]?.includes(field)) problems.push(`${table} ${String(record.id)}: ${field} is required`);
          continue;
        }
        if (!tables[target]?.has(value as string)) problems.push(`${table} ${String(record.id)}: ${field} ${String(value)} is not a ${target} record`);
      }
    }
  }
  return problems;
}

/** Facts that must agree across tables: an item's register is its order's, and so on. */
export function consistencyProblems(t: Tables): string[] {
  const problems: string[] = [];
  const orders = t.orders as Map<string, SimRecord>;
  for (const d of t.order_details?.values() ?? []) {
    const order = orders.get(d.id_order as string);
    if (order && (order.id_cash_register !== d.id_cash_register || order.id_shift !== d.id_shift)) problems.push(`item ${String(d.id)} is not at its order's register and shift`);
  }
  for (const o of orders.values()) {
    const shift = t.shifts?.get(o.id_shift as string);
    const register = t.cash_registers?.get(o.id_cash_register as string);
    if (shift?.id_cash_register !== o.id_cash_register) problems.push(`order ${String(o.id)} is not in a shift of its register`);
    if (register?.id_shop !== o.id_shop) problems.push(`order ${String(o.id)} is not in its register's shop`);
  }
  for (const x of t.transactions?.values() ?? []) {
    const order = orders.get(x.id_order as string);
    if (order?.id_cash_register !== x.id_cash_register) problems.push(`payment ${String(x.id)} is not at its order's register`);
  }
  for (const h of t.stock_history?.values() ?? []) {
    if (h.id_order !== null && orders.get(h.id_order as string)?.id_cash_register !== h.id_cash_register) problems.push(`stock row ${String(h.id)} is not at its order's register`);
  }
  return problems;
}

