/**
 * The category tree: roots such as "Nápoje" and "Jídlo", their usual children, and deeper levels
 * (up to four) so that clients see real nesting. Categories are a read-only table of the service.
 */
import type { SimRecord } from '../record.js';
import type { Rng } from '../rng.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';
import { CATEGORY_TREE } from './words.js';

/** The generated categories. */
export interface Categories {
  table: TableData;
  /** Parent index per category (-1 for roots). */
  parent: Int32Array;
  /** Category indexes without children, where products go. */
  leaves: readonly number[];
  /** Category name (for product names and reports). */
  name(k: number): string;
  /**
   * The first-level category (a child of a root, such as "Káva") that category k is or lies under;
   * for a root, its first usual child's name. It decides what products a category holds.
   */
  section(k: number): string;
}

/** Words that tell deeper categories apart ("Káva Premium", "Káva Premium Bio"). */
const QUALIFIERS = ['Classic', 'Premium', 'Bio', 'Speciál', 'Novinky', 'Akce', 'Sezóna', 'Výběr', 'Exclusive', 'Limited', 'Vegan', 'Fair trade', 'Z regionu', 'Bez lepku', 'Pro děti', 'Dovoz'] as const;

/** Generates `counts.categories` categories as a tree. */
export function generateCategories(ctx: TenantContext): Categories {
  const K = ctx.counts.categories;
  const tree: Tree = { names: [], parents: [], depth: [] };
  const roots = Math.min(CATEGORY_TREE.length, Math.max(1, Math.round(K / 5)), K);
  addTopLevels(tree, K, roots);
  addDeeperLevels(tree, K, ctx.rng('categories.tree'));
  const { names, parents, depth } = tree;
  const times = Float64Array.from({ length: K }, (_, k) => ctx.from + 5 * 3_600_000 + k * 1000);
  const table = new TableData('categories', times, ctx.rng('categories.ids'));
  const parent = Int32Array.from(parents);
  const previousSibling = new Int32Array(K).fill(-1);
  const lastChild = new Map<number, number>();
  for (let k = 0; k < K; k++) {
    const p = parents[k] as number;
    previousSibling[k] = lastChild.get(p) ?? -1;
    lastChild.set(p, k);
  }
  table.eager((k) => categoryRecord(ctx, table, names[k] as string, parent[k] as number, previousSibling[k] as number, k));
  const hasChild = new Set(parents);
  const leaves = names.map((_, k) => k).filter((k) => !hasChild.has(k));
  const section = (k: number): string => {
    let c = k;
    while ((depth[c] as number) > 1) c = parents[c] as number;
    if ((depth[c] as number) === 1) return names[c] as string;
    return CATEGORY_TREE.find(([root]) => root === names[c])?.[1][0] ?? (names[c] as string);
  };
  return { table, parent, leaves, name: (k) => names[k] as string, section };
}

/** The category tree as it grows: name, parent (-1 for a root) and depth of each category, by index. */
interface Tree {
  names: string[];
  parents: number[];
  depth: number[];
}

/** The roots, then their usual children round-robin over the roots, leaving room for deeper levels. */
function addTopLevels({ names, parents, depth }: Tree, K: number, roots: number): void {
  for (let r = 0; r < roots; r++) {
    names.push(CATEGORY_TREE[r]?.[0] ?? `Kategorie ${r + 1}`);
    parents.push(-1);
    depth.push(0);
  }
  const firstLevel = Math.min(Math.round((K - roots) * 0.6), CATEGORY_TREE.slice(0, roots).reduce((n, [, c]) => n + c.length, 0));
  for (let i = 0, added = 0; added < firstLevel; i++) {
    const r = i % roots;
    const child = CATEGORY_TREE[r]?.[1][Math.floor(i / roots)];
    if (child === undefined) continue;
    names.push(child);
    parents.push(r);
    depth.push(1);
    added++;
  }
}

/** Deeper levels up to K categories: a parent's name and a qualifier its name does not hold yet, unique among siblings. */
function addDeeperLevels({ names, parents, depth }: Tree, K: number, rng: Rng): void {
  const qualifierWords = QUALIFIERS.map((q) => q.toLocaleLowerCase().split(' '));
  /** Qualifiers a child of category k may still take, by category. */
  const freeOf: string[][] = [];
  const freeFor = (k: number): string[] => {
    let free = freeOf[k];
    if (!free) {
      const words = new Set((names[k] as string).toLocaleLowerCase().split(' '));
      free = freeOf[k] = QUALIFIERS.filter((_, i) => !(qualifierWords[i] as string[]).some((w) => words.has(w)));
    }
    return free;
  };
  while (names.length < K) {
    const candidates: number[] = [];
    for (let k = 0; k < names.length; k++) if ((depth[k] as number) >= 1 && (depth[k] as number) < 3 && freeFor(k).length > 0) candidates.push(k);
    // Only a tree far larger than any preset runs out of qualifiers; it nests under any category then.
    const parent = candidates.length > 0 ? rng.pick(candidates) : rng.int(0, names.length - 1);
    const free = freeFor(parent);
    const qualifier = free.length > 0 ? rng.pick(free) : String(parents.filter((p) => p === parent).length + 1);
    freeOf[parent] = free.filter((q) => q !== qualifier);
    names.push(`${names[parent] as string} ${qualifier}`);
    parents.push(parent);
    depth.push((depth[parent] as number) + 1);
  }
}

/** Category k, placed after its previous sibling (-1 for none) under its parent (-1 for a root). */
function categoryRecord(ctx: TenantContext, table: TableData, name: string, p: number, before: number, k: number): SimRecord {
  const r = ctx.rng('categories', k);
  const record: SimRecord = Object.assign(commonFields(table, k, ctx.idC), {
    visible: true,
    name,
    category_bitmask: 0,
    icon_code: r.int(0, 40),
    node_sort: k,
    id_category_sort_after: before < 0 ? '0' : table.id(before),
    id_category_parent: p < 0 ? '0' : table.id(p),
    id_shop: '0',
    color: r.pick([0, 0xff5722, 0x4caf50, 0x2196f3, 0x9c27b0]),
  });
  if (p >= 0) {
    record.margin_minimal_rate = r.chance(0.5) ? null : r.int(10, 40) * 1000;
    record.margin = r.chance(0.5) ? null : r.int(20, 70) * 1000;
    record.tags = r.chance(0.8) ? null : 'sezóna';
  }
  return record;
}
