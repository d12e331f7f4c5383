import { ValidationError } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import type { RecordOf } from '../schema/index.js';
import type { Client, PagesQuery } from './client.js';
import { checkCallOptions } from './endpoint-args.js';
import { assertCollection, listSearchParams, resolveListQuery, type ResolvedListQuery } from './list-query.js';
import { ORDERS_MAX_RESPONSE_BYTES, SIZE_FAILURE_STATUSES } from './page-sizer.js';
import { paginate } from './paginate.js';
import type { PathForms } from './path-forms.js';
import { toRawPage, type RawPage } from './raw-page.js';
import { readRecordPage } from './record-page.js';
import type { CallOptions, JsonResponse, Requester, RequestPolicy } from './requester.js';
import type { RequestSpec } from './transport.js';

/** Collections whose list also exists in the earlier `/<collection>/list` form (spec: Path forms). */
export const LEGACY_LIST_FORM: ReadonlySet<string> = new Set([
  'products', 'product_price_matrix', 'categories', 'shops', 'cash_registers', 'customers', 'orders', 'order_details',
]);

/**
 * The list endpoints of a client, `list` (one page) and `pages` (a traversal), over `request`
 * and the client's path-form memory. Queries are validated before any request: a bad one throws
 * a `ValidationError` (from `pages` at once, from `list` as a rejection).
 */
export function createListEndpoints(request: Requester, forms: PathForms): Pick<Client, 'list' | 'pages'> {
  async function fetchRawPage(collection: CollectionName, query: ResolvedListQuery, call: CallOptions, shrinkable: boolean): Promise<RawPage> {
    const policy: RequestPolicy = shrinkable ? { idempotent: true, giveUpOn: SIZE_FAILURE_STATUSES } : { idempotent: true };
    const send = (spec: RequestSpec): Promise<JsonResponse> => request(spec, policy, call);
    const current: RequestSpec = { method: 'GET', path: collection, query: listSearchParams(query) };
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
    const resolved = resolveListQuery(collection, query, where);
    const { signal, timeoutMs } = checkCallOptions(query, where);
    if (query.onPage !== undefined && typeof query.onPage !== 'function') {
      throw new ValidationError(`${where}: onPage must be a function`, { issues: [{ path: ['onPage'], message: 'must be a function' }] });
    }
    const io = {
      fetchRaw: (q: ResolvedListQuery, shrinkable: boolean, stop: AbortSignal) =>
        fetchRawPage(collection, q, timeoutMs === undefined ? { signal: stop } : { signal: stop, timeoutMs }, shrinkable),
      read: (raw: RawPage) => readRecordPage(collection, raw),
    };
    return paginate<RecordOf<C>>(collection, resolved, io, {
      maxBytes: collection === 'orders' ? ORDERS_MAX_RESPONSE_BYTES : undefined,
      onPage: query.onPage?.bind(query),
      signal,
      prefetch,
    });
  }

  return {
    async list(collection, query = {}) {
      // One page is the first page of a traversal: same checks, same shrinking of oversized orders
      // pages, and no prefetch (a single page must cost a single request).
      for await (const page of traverse(collection, query, 'list', false)) return page;
      throw new Error('unreachable: a traversal yields at least one page');
    },
    pages(collection, query = {}) {
      return traverse(collection, query, 'pages', true);
    },
  };
}
