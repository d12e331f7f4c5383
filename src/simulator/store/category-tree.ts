/** Categories as a tree: roots (`id_category_parent` 0 or unknown) with nested `children`. */
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';

/** A category with its children, recursively. */
export type CategoryNode = SimRecord & { children: CategoryNode[] };

/** Builds the tree; siblings by `node_sort`, then id order. */
export function categoryTree(categories: CollectionStore): CategoryNode[] {
  const nodes = new Map<string, CategoryNode>();
  for (const record of categories.records()) nodes.set(record.id as string, { ...record, children: [] });
  const roots: CategoryNode[] = [];
  for (const node of nodes.values()) {
    const parent = typeof node.id_category_parent === 'string' ? nodes.get(node.id_category_parent) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (list: CategoryNode[]): void => {
    list.sort((a, b) => Number(a.node_sort ?? 0) - Number(b.node_sort ?? 0));
    for (const node of list) sort(node.children);
  };
  sort(roots);
  return roots;
}
