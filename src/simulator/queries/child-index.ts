/**
 * Children of a parent record by one reference field (price rows by `id_product`, order items by
 * `id_order`). Built on first use by one pass over the child collection (peeking the field, not
 * building records), then kept current by every write.
 */
import { compareIds, type Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';

/** Parent id -> child ids, for one child collection and field. */
export class ChildIndex {
  private byParent: Map<Id, Id[]> | undefined;

  constructor(
    private readonly children: CollectionStore,
    private readonly field: string,
  ) {
    children.onWrite((record, previous) => this.update(record, previous));
  }

  /** Ids of the children of `parentId`, in no particular order. */
  private childIdsOf(parentId: Id): readonly Id[] {
    return this.index().get(parentId) ?? [];
  }

  /** The child records of `parentId` in ascending id order. */
  childrenOf(parentId: Id): SimRecord[] {
    const records: SimRecord[] = [];
    for (const id of this.childIdsOf(parentId)) {
      const record = this.children.get(id);
      if (record) records.push(record);
    }
    return records.sort((a, b) => compareIds(a.id as Id, b.id as Id));
  }

  private index(): Map<Id, Id[]> {
    if (this.byParent) return this.byParent;
    const map = new Map<Id, Id[]>();
    for (let pos = 0; pos < this.children.count; pos++) {
      const parent = this.children.peek(pos, this.field);
      if (typeof parent !== 'string') continue;
      const list = map.get(parent);
      const id = this.children.idAt(pos);
      if (list) list.push(id);
      else map.set(parent, [id]);
    }
    this.byParent = map;
    return map;
  }

  private update(record: SimRecord, previous: SimRecord | undefined): void {
    if (!this.byParent) return;
    const id = record.id as Id;
    const before = previous?.[this.field];
    const after = record[this.field];
    if (before === after && previous) return;
    if (typeof before === 'string') {
      const list = this.byParent.get(before);
      const at = list ? list.indexOf(id) : -1;
      if (list && at >= 0) list.splice(at, 1);
    }
    if (typeof after === 'string') {
      const list = this.byParent.get(after);
      if (list) list.push(id);
      else this.byParent.set(after, [id]);
    }
  }
}
