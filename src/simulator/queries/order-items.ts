/** Items of an order, for `orders_details/{id_cash_register}/{id_order}` and sales. */
import type { Id } from '../../ids/id.js';
import type { CollectionStore } from '../collection-store.js';
import type { SimRecord } from '../record.js';
import { ChildIndex } from './child-index.js';

/** Order items by order. */
export class OrderItems {
  private readonly index: ChildIndex;

  constructor(orderDetails: CollectionStore) {
    this.index = new ChildIndex(orderDetails, 'id_order');
  }

  /** All items of an order (deleted ones included, they carry `_d`), ascending by id. */
  itemsOf(orderId: Id): SimRecord[] {
    return this.index.childrenOf(orderId);
  }
}
