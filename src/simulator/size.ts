/**
 * How many records of each collection a simulated tenant has. Presets go from `tiny` (a few
 * dozen per collection, for tests) to `large` (about a million records, mostly orders, order
 * items and stock history); a custom object overrides `tiny` per collection.
 */
import { ValidationError, type ValidationIssue } from '../errors/index.js';
import { COLLECTIONS, isCollectionName, type CollectionName } from '../schema/collections.js';

/** Record counts per collection, plus the size of the category tree. */
export type SizeCounts = Record<CollectionName, number> & { categories: number };

/** A preset name or exact counts for some collections (the rest from `tiny`, scaled to their parents). */
export type SizeOption = 'tiny' | 'small' | 'medium' | 'large' | Partial<Record<CollectionName | 'categories', number>>;

/** The presets. `medium` is about 87 thousand records, `large` about a million. */
export const SIZE_PRESETS: Readonly<Record<'tiny' | 'small' | 'medium' | 'large', Readonly<SizeCounts>>> = {
  tiny: { shops: 2, warehouses: 3, cash_registers: 3, employees: 6, park_locations: 4, categories: 13, products: 30, product_price_matrix: 40, customers: 30, shifts: 12, orders: 40, order_details: 100, transactions: 42, stockup: 5, stock_history: 120 },
  small: { shops: 3, warehouses: 4, cash_registers: 6, employees: 15, park_locations: 10, categories: 40, products: 400, product_price_matrix: 520, customers: 500, shifts: 150, orders: 700, order_details: 1800, transactions: 720, stockup: 40, stock_history: 2100 },
  medium: { shops: 5, warehouses: 6, cash_registers: 12, employees: 40, park_locations: 20, categories: 90, products: 3000, product_price_matrix: 3900, customers: 5000, shifts: 1500, orders: 10000, order_details: 25000, transactions: 10100, stockup: 400, stock_history: 28000 },
  large: { shops: 8, warehouses: 10, cash_registers: 24, employees: 120, park_locations: 40, categories: 200, products: 12000, product_price_matrix: 15600, customers: 30000, shifts: 8000, orders: 140000, order_details: 350000, transactions: 141000, stockup: 3000, stock_history: 330000 },
};

/** Upper bound on a tenant's total records: beyond it memory and start-up time stop being small. */
export const MAX_TOTAL_RECORDS = 3_000_000;

/** Children scaled from their parent when only the parent was given in a custom size. */
const DERIVED: readonly [CollectionName, CollectionName, number][] = [
  ['product_price_matrix', 'products', 1.3],
  ['order_details', 'orders', 2.5],
  ['transactions', 'orders', 1.01],
  ['stock_history', 'order_details', 1.2],
];

/** Turns a size option into validated counts; throws ValidationError naming each bad count. */
export function resolveSize(size: SizeOption = 'tiny'): SizeCounts {
  if (typeof size === 'string') {
    const preset = (SIZE_PRESETS as Record<string, SizeCounts>)[size];
    if (!preset) throw new ValidationError(`size: expected tiny, small, medium, large or an object of counts, got "${size}"`, { issues: [{ path: ['size'], message: `unknown size "${size}"` }] });
    return { ...preset };
  }
  const issues: ValidationIssue[] = [];
  const counts: SizeCounts = { ...SIZE_PRESETS.tiny };
  for (const [key, value] of Object.entries(size)) {
    if (!isCollectionName(key) && key !== 'categories') issues.push({ path: ['size', key], message: 'not a collection' });
    else if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) issues.push({ path: ['size', key], message: `expected a whole number >= 0, got ${String(value)}` });
    else counts[key] = value;
  }
  const given = new Set(Object.keys(size));
  for (const [child, parent, ratio] of DERIVED) {
    if (given.has(parent) && !given.has(child)) {
      counts[child] = Math.round(counts[parent] * ratio);
      given.add(child);
    }
  }
  issues.push(...checkCounts(counts));
  if (issues.length > 0) {
    throw new ValidationError(`size: ${issues.map((i) => `${i.path.slice(1).join('.') || 'size'}: ${i.message}`).join('; ')}`, { issues });
  }
  return counts;
}

function checkCounts(c: SizeCounts): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const need = (ok: boolean, field: string, message: string): void => {
    if (!ok) issues.push({ path: ['size', field], message });
  };
  for (const base of ['shops', 'warehouses', 'cash_registers', 'employees'] as const) need(c[base] >= 1, base, 'must be at least 1: every tenant has one');
  need(c.categories >= 1 || c.products === 0, 'categories', 'products need at least one category');
  need(c.categories <= 2000, 'categories', 'at most 2000 categories');
  need(c.shifts >= c.cash_registers, 'shifts', 'must be at least cash_registers: each register has an open shift');
  need(c.orders === 0 || c.shifts > c.cash_registers, 'shifts', 'orders need closed shifts: more shifts than cash_registers');
  need(c.order_details === 0 || (c.orders >= 1 && c.products >= 1), 'order_details', 'order items need orders and products');
  need(c.transactions === 0 || c.orders >= 1, 'transactions', 'transactions need orders');
  need(c.product_price_matrix === 0 || c.products >= 1, 'product_price_matrix', 'prices need products');
  need(c.stock_history === 0 || c.products >= 1, 'stock_history', 'stock history needs products');
  const total = COLLECTIONS.reduce((sum, name) => sum + c[name], 0);
  need(total <= MAX_TOTAL_RECORDS, 'orders', `total ${total} records exceeds ${MAX_TOTAL_RECORDS}`);
  return issues;
}
