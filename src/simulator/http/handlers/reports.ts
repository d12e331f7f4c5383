/**
 * The two reports. `warehouse_status` needs `id_warehouse` (400 when missing or not an id, 404
 * for an unknown warehouse). `order_history` needs `date_start` and `date_end` (ms, start <= end);
 * `id_cash_register` and `id_shop` filter (0 = no filter; 404 when unknown); `timezone`, when sent,
 * must be an IANA zone name (400 otherwise). See queries/order-history.ts for its answer.
 */
import { tryToId } from '../../../ids/id.js';
import { orderHistory } from '../../queries/order-history.js';
import { warehouseStatus } from '../../queries/warehouse-status.js';
import type { SimRecord } from '../../record.js';
import type { Handler, HandlerContext, RouteRequest } from '../handler.js';
import { errorReply, ok, type Reply } from '../respond.js';
import { toWire } from '../wire.js';
import { readJsonBody } from './json-body.js';

/** `POST reports/generic/warehouse_status`. */
export const warehouseStatusHandler: Handler = (ctx, req) => {
  const parsed = reportBody(req, 'warehouse_status');
  if (!('fields' in parsed)) return parsed;
  const body = parsed.fields;
  const id = warehouseRef(body);
  if (typeof id !== 'string') return id;
  const tz = timezone(body);
  if (typeof tz !== 'string') return tz;
  const warehouse = ctx.store.collection('warehouses').get(id);
  if (!warehouse) return errorReply(404, 'not_found', `warehouse_status: no warehouses record with id ${id}`);
  return ok(toWire(warehouseStatus(ctx.store, ctx.store.ledger, warehouse), ctx.switches, 'warehouse_status'));
};

/** `POST reports/generic/order_history`. */
export const orderHistoryHandler: Handler = (ctx, req) => {
  const parsed = reportBody(req, 'order_history');
  if (!('fields' in parsed)) return parsed;
  const body = parsed.fields;
  const start = body.date_start;
  const end = body.date_end;
  for (const [name, value] of [['date_start', start], ['date_end', end]] as const) {
    if (!Number.isSafeInteger(value)) return issue('order_history', name, value === undefined ? 'required (ms)' : 'must be an integer time in ms');
  }
  if ((start as number) > (end as number)) return issue('order_history', 'date_end', 'must not be before date_start');
  const tz = timezone(body);
  if (typeof tz !== 'string') return tz;
  const register = optionalRef(ctx, body, 'id_cash_register', 'cash_registers');
  if (typeof register === 'object') return register;
  const shop = optionalRef(ctx, body, 'id_shop', 'shops');
  if (typeof shop === 'object') return shop;
  const report = orderHistory(ctx.store.collection('orders'), { dateStart: start as number, dateEnd: end as number, timezone: tz, idCashRegister: register, idShop: shop });
  return ok(toWire(report, ctx.switches, 'order_history'));
};

function reportBody(req: RouteRequest, name: string): { fields: SimRecord } | Reply {
  const parsed = readJsonBody(req, `POST reports/generic/${name}`);
  if (!('value' in parsed)) return parsed;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return issue(name, '(body)', 'must be a JSON object');
  return { fields: value as SimRecord };
}

function warehouseRef(body: SimRecord): string | Reply {
  const value = body.id_warehouse;
  if (value === undefined || value === null) return issue('warehouse_status', 'id_warehouse', 'required');
  const id = tryToId(value);
  if (id === undefined || id === '0') return issue('warehouse_status', 'id_warehouse', `must be an id, got ${JSON.stringify(value)}`);
  return id;
}

function optionalRef(ctx: HandlerContext, body: SimRecord, name: string, table: 'cash_registers' | 'shops'): string | undefined | Reply {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const id = tryToId(value);
  if (id === undefined) return issue('order_history', name, `must be an id, got ${JSON.stringify(value)}`);
  if (id === '0') return undefined;
  if (!ctx.store.collection(table).has(id)) return errorReply(404, 'not_found', `order_history: no ${table} record with id ${id}`);
  return id;
}

function timezone(body: SimRecord): string | Reply {
  const tz = body.timezone;
  if (tz === undefined || tz === null) return 'UTC';
  if (typeof tz === 'string') {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return tz;
    } catch {
      // fall through to the 400
    }
  }
  return issue('report', 'timezone', `must be an IANA time zone name, got ${JSON.stringify(tz)}`);
}

function issue(report: string, field: string, message: string): Reply {
  return errorReply(400, 'validation', `${report}: ${field}: ${message}`, { issues: [{ path: field === '(body)' ? [] : [field], message }] });
}
