import { ValidationError, type ValidationIssue } from '../errors/index.js';
import { stringifyJson } from '../json/index.js';
import { parseWarehouseStatus } from '../schema/index.js';
import { toValidationIssues } from '../schema/issues.js';
import { checkToken, resolveClientOptions, type ClientOptions } from './client-options.js';
import type { Client } from './client.js';
import { checkCallOptions, requireId } from './endpoint-args.js';
import { fetchLatestOrders } from './latest-orders.js';
import { createListEndpoints } from './list-endpoints.js';
import { assertCollection } from './list-query.js';
import { createPathForms, listPathPair } from './path-forms.js';
import { expectRecord, invalidBody } from './read-body.js';
import { readWholeRecordPage } from './record-page.js';
import { prepareOrderHistoryBody, prepareWarehouseStatusBody } from './reports.js';
import { createRequester, type CallOptions, type JsonResponse, type RequestPolicy } from './requester.js';
import { isIdempotentBody, prepareSaveBody } from './save-body.js';

/** Reads are idempotent; so are the reports, which only read (retried like a GET). */
const READ: RequestPolicy = { idempotent: true };

/**
 * Creates the REST client. Options are validated here, once: a missing or empty `token` or
 * `userAgent`, or a `baseUrl` that is not http(s), is a `ValidationError` naming the option.
 *
 * Every request carries `Authorization: A|<token>`, `Accept` and `Content-Type: application/json`,
 * `User-Agent: <userAgent>` and the same value in `X-Client-User-Agent` (browsers may silently drop
 * a `User-Agent` set by script; see `clientUserAgentHeader` for CORS). Paths of today are tried
 * first; on 404 the client falls back to the earlier `/list` and `orders/latest` forms and
 * remembers, per endpoint, which form the server speaks.
 *
 * Aborting a call's `signal` rejects it promptly with `signal.reason` (a `DOMException` named
 * `AbortError` unless the caller gave another reason), never with a PosCloudError, and it is never
 * retried.
 */
export function createClient(options: ClientOptions): Client {
  const resolved = resolveClientOptions(options);
  let token = resolved.token;
  const getToken = (): string => token;
  const request = createRequester({ options: resolved, getToken });
  const forms = createPathForms();
  const { list, pages } = createListEndpoints(request, forms);

  const post = (path: string, body: unknown, policy: RequestPolicy, call: CallOptions): Promise<JsonResponse> =>
    request({ method: 'POST', path, body: stringifyJson(body) }, policy, call);

  return {
    list,
    pages,

    async get(collection, id, options) {
      const where = `get ${collection}`;
      if (collection !== 'products' && collection !== 'customers') {
        throw new ValidationError(`${where}: only products and customers can be read by id`, {
          issues: [{ path: ['collection'], message: "expected 'products' or 'customers'" }],
        });
      }
      const recordId = requireId(id, 'id', where);
      const call = checkCallOptions(options, where);
      return expectRecord(collection, await request({ method: 'GET', path: `${collection}/${recordId}` }, READ, call));
    },

    async save(collection, body, options) {
      assertCollection(collection, 'save');
      const where = `save ${collection}`;
      const call = checkCallOptions(options, where);
      const wire = prepareSaveBody(collection, body, where);
      // The spec does not show the answer of a POST: whatever it is comes back parsed, or undefined.
      const ignoreBody = options?.readResponse === false;
      return (await post(collection, wire, { idempotent: isIdempotentBody(wire), allowEmpty: true, ignoreBody }, call)).value;
    },

    async categories(options) {
      const call = checkCallOptions(options, 'categories');
      const response = await forms.send('list:categories', listPathPair('categories'), (spec) => request(spec, READ, call));
      return readWholeRecordPage('categories', response);
    },

    async priceByProductId(idProduct, options) {
      const where = 'priceByProductId';
      const id = requireId(idProduct, 'idProduct', where);
      const call = checkCallOptions(options, where);
      return (await request({ method: 'GET', path: `products/get-price-by-product-id/${id}` }, READ, call)).value;
    },

    latestOrders(idCashRegister, query) {
      return fetchLatestOrders(request, forms, idCashRegister, query);
    },

    async orderWithItems(idCashRegister, idOrder, options) {
      const where = 'orderWithItems';
      const register = requireId(idCashRegister, 'idCashRegister', where);
      const order = requireId(idOrder, 'idOrder', where);
      const call = checkCallOptions(options, where);
      return expectRecord('orders', await request({ method: 'GET', path: `orders_details/${register}/${order}` }, READ, call));
    },

    async warehouseStatus(body, options) {
      const where = 'warehouseStatus';
      const call = checkCallOptions(options, where);
      const response = await post('reports/generic/warehouse_status', prepareWarehouseStatusBody(body, where), READ, call);
      const result = parseWarehouseStatus(response.value);
      if (result.success) return result.data;
      throw invalidBody(response, toValidationIssues(result.error.issues));
    },

    async orderHistory(body, options) {
      const where = 'orderHistory';
      const call = checkCallOptions(options, where);
      return (await post('reports/generic/order_history', prepareOrderHistoryBody(body, where), READ, call)).value;
    },

    setToken(next) {
      const issues: ValidationIssue[] = [];
      checkToken(next, 'token', (path, message) => issues.push({ path: [path], message }));
      if (issues.length > 0) throw new ValidationError(`setToken: ${issues.map((i) => i.message).join('; ')}`, { issues });
      token = next;
    },
  };
}
