import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { CategoryNode, Order, RecordOf, WarehouseStatus } from '../schema/index.js';
import type { ListQuery } from './list-query.js';
import type { RecordPage } from './record-page.js';
import type { OrderHistoryBody, WarehouseStatusBody } from './reports.js';
import type { CallOptions } from './requester.js';

/** Query of {@link Client.pages}: a list query plus a per-page callback. */
export interface PagesQuery<T = unknown> extends ListQuery {
  /** Called with every page before it is yielded; persist `page.cursor` here to resume later. */
  onPage?(page: RecordPage<T>): void;
}

/** Options of {@link Client.save}. */
export interface SaveOptions extends CallOptions {
  /**
   * Parse the response body (`true`) or take the success status as the whole answer and resolve to
   * `undefined` (`false`: cheaper when nothing reads the answer, as in the mirror's pushes).
   * @default true
   */
  readResponse?: boolean;
}

/** Query of {@link Client.latestOrders}. */
export interface LatestOrdersQuery extends CallOptions {
  /** Only orders paid this way (221 cash, 222 credit card, 238 a payment terminal provider). */
  idPayment?: number;
}

/**
 * The REST client of the service: every endpoint of the spec, with auth, pagination, retries and
 * typed errors. Every method takes an `AbortSignal` (aborting rejects with the signal's `reason`)
 * and a per-try `timeoutMs`. Records come back through their read schemas: ids as canonical strings,
 * unknown fields kept.
 */
export interface Client {
  /**
   * One page of a collection (`GET /<collection>`, falling back to `/<collection>/list`).
   * The result is an array of the good records carrying `rejected`, `cursor`, `done`, `serverTime`.
   */
  list<C extends CollectionName>(collection: C, query?: ListQuery): Promise<RecordPage<RecordOf<C>>>;
  /**
   * Every page of a collection from `idStart` (or the start) in one direction, until a short page.
   * Resumable: pass a page's `cursor` as `idStart` to continue after it.
   */
  pages<C extends CollectionName>(collection: C, query?: PagesQuery<RecordOf<C>>): AsyncIterable<RecordPage<RecordOf<C>>>;
  /** One product or customer by id (`GET /products/{id}`, `GET /customers/{id}`). */
  get<C extends 'products' | 'customers'>(collection: C, id: Id, options?: CallOptions): Promise<RecordOf<C>>;
  /**
   * Creates or updates one record or a batch (`POST /<collection>`); `_t` is filled in when missing.
   * Resolves to the parsed response body (`undefined` when empty): the spec does not show it, so do
   * not rely on it. Retried only when every record carries its own non-zero id (and on 429).
   */
  save(collection: CollectionName, body: object | readonly object[], options?: SaveOptions): Promise<unknown>;
  /**
   * The category tree (`GET /categories`, falling back to `/categories/list`): root nodes with
   * nested `children`. Roots that fail their schema are in the result's `rejected`.
   */
  categories(options?: CallOptions): Promise<RecordPage<CategoryNode>>;
  /** Prices of one product (`GET /products/get-price-by-product-id/{id}`), parsed JSON (shape not shown by the spec). */
  priceByProductId(idProduct: Id, options?: CallOptions): Promise<unknown>;
  /**
   * The latest 40 orders of a register (`GET /orders/latest/{id}`, falling back to `/orders/latest`
   * filtered to that register). Not paginated.
   */
  latestOrders(idCashRegister: Id, query?: LatestOrdersQuery): Promise<RecordPage<Order>>;
  /** One order with its items in `__order_details` (`GET /orders_details/{register}/{order}`). */
  orderWithItems(idCashRegister: Id, idOrder: Id, options?: CallOptions): Promise<Order>;
  /** The warehouse_status report (`POST /reports/generic/warehouse_status`). */
  warehouseStatus(body: WarehouseStatusBody, options?: CallOptions): Promise<WarehouseStatus>;
  /** The order_history report (`POST /reports/generic/order_history`), parsed JSON (shape not shown by the spec). */
  orderHistory(body: OrderHistoryBody, options?: CallOptions): Promise<unknown>;
  /** Replaces the API token for every later request (the old one is forgotten). */
  setToken(token: string): void;
}
