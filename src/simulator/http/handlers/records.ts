/**
 * Single-record and fixed-size reads: `products/{id}`, `customers/{id}` (404 JSON when unknown),
 * `products/get-price-by-product-id/{id}` (the simulator's choice, as the spec leaves it open: a
 * JSON array of the product's live price matrix rows, latest `date_starts` first),
 * `orders/latest[/{id_cash_register}]` (40 newest, optional `id_payment`) and
 * `orders_details/{id_cash_register}/{id_order}` (the order with `__order_details`).
 */
import { parseIdText } from '../../id-index.js';
import type { SimRecord } from '../../record.js';
import { latestOrders } from '../../queries/latest-orders.js';
import type { Handler, RouteRequest } from '../handler.js';
import { errorReply, ok, type Reply } from '../respond.js';
import { toWire } from '../wire.js';
import { orderWithItems, hydrateProduct } from './hydrate.js';

function pathId(req: RouteRequest, name: string): string | Reply {
  const raw = req.params[name] ?? '';
  return parseIdText(raw) ?? errorReply(400, 'invalid_id', `${name} must be a record id, got ${JSON.stringify(raw.slice(0, 40))}`);
}

function notFound(table: string, id: string): Reply {
  return errorReply(404, 'not_found', `no ${table} record with id ${id}`);
}

/** `GET products/{id}`: the product with its `__price_matrix_model`. */
export const productHandler: Handler = (ctx, req) => {
  const id = pathId(req, 'id');
  if (typeof id !== 'string') return id;
  const product = ctx.store.collection('products').get(id);
  return product ? ok(toWire(hydrateProduct(ctx.store, product), ctx.switches, 'products')) : notFound('products', id);
};

/** `GET customers/{id}`. */
export const customerHandler: Handler = (ctx, req) => {
  const id = pathId(req, 'id');
  if (typeof id !== 'string') return id;
  const customer = ctx.store.collection('customers').get(id);
  return customer ? ok(toWire(customer, ctx.switches, 'customers')) : notFound('customers', id);
};

/** `GET products/get-price-by-product-id/{id_product}`: the product's price rows. */
export const pricesHandler: Handler = (ctx, req) => {
  const id = pathId(req, 'id_product');
  if (typeof id !== 'string') return id;
  if (!ctx.store.collection('products').has(id)) return notFound('products', id);
  return ok(toWire(ctx.store.prices.rowsOf(id), ctx.switches, 'product_price_matrix'));
};

/** `GET orders/latest/{id_cash_register}` (or, without the parameter, the earlier overall form). */
export const latestOrdersHandler: Handler = (ctx, req) => {
  let register: string | undefined;
  if (req.params.id_cash_register !== undefined) {
    const id = pathId(req, 'id_cash_register');
    if (typeof id !== 'string') return id;
    if (!ctx.store.collection('cash_registers').has(id)) return notFound('cash_registers', id);
    register = id;
  }
  const rawPayment = req.query.get('id_payment');
  let idPayment: number | undefined;
  if (rawPayment !== null) {
    if (!/^[0-9]{1,9}$/.test(rawPayment)) return errorReply(400, 'invalid_query', `id_payment must be an integer, got ${JSON.stringify(rawPayment.slice(0, 40))}`);
    idPayment = Number(rawPayment);
  }
  return ok(toWire(latestOrders(ctx.store.collection('orders'), { idCashRegister: register, idPayment }), ctx.switches, 'orders'));
};

/** `GET orders_details/{id_cash_register}/{id_order}`: 404 unless the order exists at that register. */
export const orderDetailsHandler: Handler = (ctx, req) => {
  const register = pathId(req, 'id_cash_register');
  if (typeof register !== 'string') return register;
  const orderId = pathId(req, 'id_order');
  if (typeof orderId !== 'string') return orderId;
  const order: SimRecord | undefined = ctx.store.collection('orders').get(orderId);
  if (!order || order.id_cash_register !== register) return errorReply(404, 'not_found', `no orders record with id ${orderId} at cash register ${register}`);
  return ok(toWire(orderWithItems(ctx.store, order), ctx.switches, 'orders'));
};
