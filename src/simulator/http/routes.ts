/**
 * Every endpoint of the service, below the base path. Patterns use `:name` for path parameters;
 * literal routes are listed before parameter routes so that `products/list` is not an id. Routes
 * marked `current` are the current forms that have an earlier equivalent: the `legacyPathsOnly`
 * switch answers them 404.
 */
import { COLLECTIONS } from '../../schema/collections.js';
import type { Handler } from './handler.js';
import { categoriesHandler, listHandler } from './handlers/list.js';
import { postHandler } from './handlers/post.js';
import { customerHandler, latestOrdersHandler, orderDetailsHandler, pricesHandler, productHandler } from './handlers/records.js';
import { orderHistoryHandler, warehouseStatusHandler } from './handlers/reports.js';

/** One endpoint. */
export interface Route {
  method: 'GET' | 'POST';
  /** Pattern below the base path, e.g. `/orders/latest/:id_cash_register`. */
  pattern: string;
  handler: Handler;
  /** A current form with an earlier `/list` or `orders/latest` equivalent. */
  current: boolean;
  segments: readonly string[];
}

/** Collections whose list also has the earlier `/list` form (spec, "Path forms"). */
export const LEGACY_LIST_COLLECTIONS = ['products', 'product_price_matrix', 'categories', 'shops', 'cash_registers', 'customers', 'orders', 'order_details'] as const;

function route(method: 'GET' | 'POST', pattern: string, handler: Handler, current = false): Route {
  return { method, pattern, handler, current, segments: pattern.split('/').filter(Boolean) };
}

/** The route table, in match order. */
export const ROUTES: readonly Route[] = [
  route('GET', '/categories', categoriesHandler, true),
  route('GET', '/categories/list', categoriesHandler),
  ...COLLECTIONS.flatMap((c) => [route('GET', `/${c}`, listHandler(c), (LEGACY_LIST_COLLECTIONS as readonly string[]).includes(c)), route('POST', `/${c}`, postHandler(c))]),
  ...LEGACY_LIST_COLLECTIONS.filter((c) => c !== 'categories').map((c) => route('GET', `/${c}/list`, listHandler(c))),
  route('GET', '/orders/latest', latestOrdersHandler),
  route('POST', '/reports/generic/warehouse_status', warehouseStatusHandler),
  route('POST', '/reports/generic/order_history', orderHistoryHandler),
  route('GET', '/products/get-price-by-product-id/:id_product', pricesHandler),
  route('GET', '/orders/latest/:id_cash_register', latestOrdersHandler, true),
  route('GET', '/orders_details/:id_cash_register/:id_order', orderDetailsHandler),
  route('GET', '/products/:id', productHandler),
  route('GET', '/customers/:id', customerHandler),
];

/** A match: the route and its parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/**
 * Finds the route for a method and path (below the base path). `allowed` lists the methods the
 * path accepts, for a 405, when it matched only with another method.
 */
export function matchRoute(method: string, path: string, legacyOnly: boolean): { match?: RouteMatch; allowed: string[] } {
  const segments = path.split('/').filter(Boolean);
  const allowed: string[] = [];
  let hidden = false;
  for (const r of ROUTES) {
    const params = matchSegments(r.segments, segments);
    if (!params) continue;
    if (legacyOnly && r.current) {
      // A hidden current form is unknown to this server: 404, not 405 for its other methods.
      hidden ||= r.method === method;
      continue;
    }
    if (r.method === method) return { match: { route: r, params }, allowed };
    if (!allowed.includes(r.method)) allowed.push(r.method);
  }
  return { allowed: hidden ? [] : allowed };
}

function matchSegments(pattern: readonly string[], path: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const s = path[i] as string;
    if (p.startsWith(':')) params[p.slice(1)] = decodeSegment(s);
    else if (p !== s) return undefined;
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
