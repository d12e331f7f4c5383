import { ValidationError, type ValidationIssue } from '../errors/index.js';
import { tryToId } from '../ids/id.js';
import { stringifyJson } from '../json/index.js';
import type { CollectionName } from '../schema/collections.js';
import { warehouseStatusSchema, type RecordOf } from '../schema/index.js';
import { checkToken, resolveClientOptions, type ClientOptions } from './client-options.js';
import type { Client, LatestOrdersQuery, PagesQuery } from './client.js';
import { checkCallOptions, requireId } from './endpoint-args.js';
import { assertCollection, listSearchParams, resolveListQuery, type ResolvedListQuery } from './list-query.js';
import { ORDERS_MAX_RESPONSE_BYTES } from './page-sizer.js';
import { paginate } from './paginate.js';
import { createPathForms } from './path-forms.js';
import { toRawPage, type RawPage } from './raw-page.js';
import { makeRecordPage, readRecordPage } from './record-page.js';
import { collectRecords, expectArray, expectRecord, invalidBody } from './read-body.js';
import { prepareOrderHistoryBody, prepareWarehouseStatusBody } from './reports.js';
import { createRequester, type CallOptions, type JsonResponse, type RequestPolicy } from './requester.js';
import { isIdempotentBody, prepareSaveBody } from './save-body.js';
import { createTransport, type RequestSpec } from './transport.js';

/** Collections whose list also exists in the earlier `/<collection>/list` form (spec: Path forms). */
const LEGACY_LIST_FORM: ReadonlySet<string> = new Set([
  'products', 'product_price_matrix', 'categories', 'shops', 'cash_registers', 'customers', 'orders', 'order_details',
]);

/** Statuses an orders page too big for the 6 MB cap fails with; the pager shrinks instead of retrying. */
const SIZE_FAILURES: ReadonlySet<number> = new Set([500, 413]);

const READ: RequestPolicy = { idempotent: true };

/**
 * Creates the REST client. Options are validated here, once: a missing or empty `token` or
 * `userAgent`, or a `baseUrl` that is not http(s), is a `ValidationError` naming the option.
 *
 * Every request carries `Authorization: A|<token>`, `Accept` and `Content-Type: application/json`,
 * `User-Agent: <userAgent>` and the same value in `X-Client-User-Agent` (browsers may silently
 * drop a `User-Agent` set by script). Paths of today are tried first; on 404 the client falls
 * back to the earlier `/list` and `orders/latest` forms and remembers, per endpoint, which form
 * the server speaks.
 *
 * Aborting a call's `signal` rejects it promptly with `signal.reason` (a `DOMException` named
 * `AbortError` unless the caller gave another reason), never with a PosCloudError, and it is never
 * retried.
 */
export function createClient(options: ClientOptions): Client {
  const resolved = resolveClientOptions(options);
  let token = resolved.token;
  const getToken = (): string => token;
  const transport = createTransport({ baseUrl: resolved.baseUrl, userAgent: resolved.userAgent, getToken, fetch: resolved.fetch });
  const request = createRequester(transport, resolved, getToken);
  const forms = createPathForms();

  const get = (path: string, call: CallOptions, query?: Record<string, string>): Promise<JsonResponse> =>
    request({ method: 'GET', path, ...(query ? { query } : {}) }, READ, call);

  async function fetchRawPage(
    collection: CollectionName,
    query: ResolvedListQuery,
    signal: AbortSignal,
    shrinkable: boolean,
    timeoutMs: number | undefined,
  ): Promise<RawPage> {
    const params = listSearchParams(query);
    const policy: RequestPolicy = shrinkable ? { idempotent: true, giveUpOn: SIZE_FAILURES } : READ;
    const call: CallOptions = timeoutMs === undefined ? { signal } : { signal, timeoutMs };
    const send = (spec: RequestSpec): Promise<JsonResponse> => request(spec, policy, call);
    const current: RequestSpec = { method: 'GET', path: collection, query: params };
    const response = LEGACY_LIST_FORM.has(collection)
      ? await forms.send(`list:${collection}`, { current, legacy: { ...current, path: `${collection}/list` } }, send)
      : await send(current);
    return toRawPage(collection, response.value, {
      request: response.request,
      idStart: query.idStart,
      limit: query.limit,
      bytes: response.bytes,
      serverTime: response.serverTime,
      capBytes: collection === 'orders' ? ORDERS_MAX_RESPONSE_BYTES : undefined,
    });
  }

  function traverse<C extends CollectionName>(collection: C, query: PagesQuery<RecordOf<C>>, where: string, prefetch: boolean) {
    assertCollection(collection, where);
    const resolvedQuery = resolveListQuery(collection, query, where);
    if (query.onPage !== undefined && typeof query.onPage !== 'function') {
      throw new ValidationError(`${where}: onPage must be a function`, { issues: [{ path: ['onPage'], message: 'must be a function' }] });
    }
    const { signal, timeoutMs } = query;
    const io = {
      fetchRaw: (q: ResolvedListQuery, shrinkable: boolean, stop: AbortSignal) =>
        fetchRawPage(collection, q, stop, shrinkable, timeoutMs),
      read: (raw: RawPage) => readRecordPage(collection, raw),
    };
    return paginate<RecordOf<C>>(collection, resolvedQuery, io, {
      maxBytes: collection === 'orders' ? ORDERS_MAX_RESPONSE_BYTES : undefined,
      onPage: query.onPage?.bind(query),
      signal,
      prefetch,
    });
  }

  return {
    async list(collection, query = {}) {
      // One page is the first page of a traversal: same checks, same shrinking of oversized orders pages.
      for await (const page of traverse(collection, query, 'list', false)) return page;
      throw new Error('unreachable: a traversal yields at least one page');
    },

    pages(collection, query = {}) {
      return traverse(collection, query, 'pages', true);
    },

    async get(collection, id, options) {
      const where = `get ${String(collection)}`;
      if (collection !== 'products' && collection !== 'customers') {
        throw new ValidationError(`${where}: only products and customers can be read by id`, {
          issues: [{ path: ['collection'], message: "expected 'products' or 'customers'" }],
        });
      }
      const recordId = requireId(id, 'id', where);
      const response = await get(`${collection}/${recordId}`, checkCallOptions(options, where));
      return expectRecord(collection, response);
    },

    async save(collection, body, options) {
      assertCollection(collection, 'save');
      const where = `save ${collection}`;
      const call = checkCallOptions(options, where);
      const wire = prepareSaveBody(collection, body, where);
      const response = await request(
        { method: 'POST', path: collection, body: stringifyJson(wire) },
        { idempotent: isIdempotentBody(wire), allowEmpty: true },
        call,
      );
      return response.value;
    },

    async categories(options) {
      const call = checkCallOptions(options, 'categories');
      const current: RequestSpec = { method: 'GET', path: 'categories' };
      const response = await forms.send('list:categories', { current, legacy: { ...current, path: 'categories/list' } }, (spec) =>
        request(spec, READ, call),
      );
      const value = expectArray(response, 'categories');
      const roots = collectRecords('categories', value);
      return makeRecordPage(roots.records, { ...wholeResponse(response, value.length), rejected: roots.rejected });
    },

    async priceByProductId(idProduct, options) {
      const where = 'priceByProductId';
      const id = requireId(idProduct, 'idProduct', where);
      return (await get(`products/get-price-by-product-id/${id}`, checkCallOptions(options, where))).value;
    },

    async latestOrders(idCashRegister, query: LatestOrdersQuery = {}) {
      const where = 'latestOrders';
      const register = requireId(idCashRegister, 'idCashRegister', where);
      const call = checkCallOptions(callOf(query), where);
      const { idPayment } = query;
      if (idPayment !== undefined && !(Number.isSafeInteger(idPayment) && idPayment >= 0)) {
        throw new ValidationError(`${where}: idPayment must be an integer >= 0`, { issues: [{ path: ['idPayment'], message: 'must be an integer >= 0' }] });
      }
      const payment: Record<string, string> = idPayment === undefined ? {} : { id_payment: String(idPayment) };
      const current: RequestSpec = { method: 'GET', path: `orders/latest/${register}`, query: payment };
      // The earlier form has no register in its path: ask for it in the query and keep only its orders.
      const legacy: RequestSpec = { method: 'GET', path: 'orders/latest', query: { id_cash_register: register, ...payment } };
      let usedLegacy = false;
      const send = (spec: RequestSpec): Promise<JsonResponse> => {
        usedLegacy = spec === legacy;
        return request(spec, READ, call);
      };
      // The current form 404s for an unknown register too: the earlier form is only proven when
      // its answer holds orders of this register.
      const proves = (response: JsonResponse): boolean =>
        Array.isArray(response.value) && response.value.some((raw) => tryToId((raw as { id_cash_register?: unknown } | null)?.id_cash_register) === register);
      const response = await forms.send('orders/latest', { current, legacy }, send, proves);
      const value = expectArray(response, 'orders');
      const found = collectRecords('orders', value);
      const records = usedLegacy ? found.records.filter((order) => order.id_cash_register === register) : found.records;
      return makeRecordPage(records, { ...wholeResponse(response, value.length), rejected: found.rejected });
    },

    async orderWithItems(idCashRegister, idOrder, options) {
      const where = 'orderWithItems';
      const register = requireId(idCashRegister, 'idCashRegister', where);
      const order = requireId(idOrder, 'idOrder', where);
      const response = await get(`orders_details/${register}/${order}`, checkCallOptions(options, where));
      return expectRecord('orders', response);
    },

    async warehouseStatus(body, options) {
      const where = 'warehouseStatus';
      const call = checkCallOptions(options, where);
      const wire = prepareWarehouseStatusBody(body, where);
      // Reports only read: repeating one is harmless, so it is retried like a GET.
      const response = await request({ method: 'POST', path: 'reports/generic/warehouse_status', body: stringifyJson(wire) }, READ, call);
      const result = warehouseStatusSchema.safeParse(response.value);
      if (result.success) return result.data;
      throw invalidBody(response, result.error.issues.map((i) => ({ path: i.path.filter(isPathKey), message: i.message })));
    },

    async orderHistory(body, options) {
      const where = 'orderHistory';
      const call = checkCallOptions(options, where);
      const wire = prepareOrderHistoryBody(body, where);
      return (await request({ method: 'POST', path: 'reports/generic/order_history', body: stringifyJson(wire) }, READ, call)).value;
    },

    setToken(next) {
      const issues: ValidationIssue[] = [];
      checkToken(next, 'token', (path, message) => issues.push({ path: [path], message }));
      if (issues.length > 0) throw new ValidationError(`setToken: ${issues.map((i) => i.message).join('; ')}`, { issues });
      token = next;
    },
  };
}

/** The per-call part of a query object. */
function callOf(query: CallOptions): CallOptions {
  const call: CallOptions = {};
  if (query.signal !== undefined) call.signal = query.signal;
  if (query.timeoutMs !== undefined) call.timeoutMs = query.timeoutMs;
  return call;
}

/** Page facts of a response that is not paginated: no cursor, always the last page. */
function wholeResponse(response: JsonResponse, rawCount: number) {
  return { cursor: undefined, done: true, serverTime: response.serverTime, limit: Number.POSITIVE_INFINITY, bytes: response.bytes, rawCount };
}

function isPathKey(key: PropertyKey): key is string | number {
  return typeof key === 'string' || typeof key === 'number';
}
