import { ValidationError } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import type { RecordOf } from '../schema/index.js';
import type { Client, PagesQuery } from './client.js';
import { checkCallOptions } from './endpoint-args.js';
import { assertCollection, listSearchParams, resolveListQuery, type ResolvedListQuery } from './list-query.js';
import { isSizeFailure, ORDERS_MAX_RESPONSE_BYTES } from './page-sizer.js';
import { paginate } from './paginate.js';
import { listPathPair, type PathForms } from './path-forms.js';
import { toRawPage, type RawPage } from './raw-page.js';
import { readRecordPage } from './record-page.js';
import type { CallOptions, JsonResponse, Requester, RequestPolicy } from './requester.js';
import type { RequestSpec } from './request-spec.js';

/**
 * Collections whose list also exists in the earlier `/<collection>/list` form (spec: Path forms).
 * Categories have it too; their endpoint is not a collection list and sends both forms itself.
 */
const LEGACY_LIST_FORM: ReadonlySet<CollectionName> = new Set<CollectionName>([
  'products', 'product_price_matrix', 'shops', 'cash_registers', 'customers', 'orders', 'order_details',
]);

/**
 * The list endpoints of a client, `list` (one page) and `pages` (a traversal), over `request`
 * and the client's path-form memory. Queries are validated before any request: a bad one throws
 * a `ValidationError` (from `pages` at once, from `list` as a rejection).
 */
export function createListEndpoints(request: Requester, forms: PathForms): Pick<Client, 'list' | 'pages'> {
  async function fetchRawPage(
    collection: CollectionName,
    query: ResolvedListQuery,
    call: CallOptions,
    shrinkable: boolean,
    capBytes: number | undefined,
  ): Promise<RawPage> {
    const policy: RequestPolicy = shrinkable ? { idempotent: true, giveUpOn: isSizeFailure } : { idempotent: true };
    const send = (spec: RequestSpec): Promise<JsonResponse> => request(spec, policy, call);
    const paths = listPathPair(collection, listSearchParams(query));
    const response = LEGACY_LIST_FORM.has(collection) ? await forms.send(`list:${collection}`, paths, send) : await send(paths.current);
    return toRawPage(collection, response.value, {
      request: response.request,
      idStart: query.idStart,
      limit: query.limit,
      bytes: response.bytes,
      serverTime: response.serverTime,
      capBytes,
    });
  }

  function traverse<C extends CollectionName>(collection: C, query: PagesQuery<RecordOf<C>>, where: string, prefetch: boolean) {
    assertCollection(collection, where);
    const resolved = resolveListQuery(collection, query, where);
    const { signal, timeoutMs } = checkCallOptions(query, where);
    if (query.onPage !== undefined && typeof query.onPage !== 'function') {
      throw new ValidationError(`${where}: onPage must be a function`, { issues: [{ path: ['onPage'], message: 'must be a function' }] });
    }
    const maxBytes = collection === 'orders' ? ORDERS_MAX_RESPONSE_BYTES : undefined;
    const io = {
      fetchRaw: (q: ResolvedListQuery, shrinkable: boolean, stop: AbortSignal) =>
        fetchRawPage(collection, q, timeoutMs === undefined ? { signal: stop } : { signal: stop, timeoutMs }, shrinkable, maxBytes),
      read: (raw: RawPage) => readRecordPage(collection, raw),
    };
    return paginate<RecordOf<C>>(collection, resolved, io, {
      maxBytes,
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
