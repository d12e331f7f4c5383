/**
 * `GET {base}/<collection>` (and `/<collection>/list`): one page of records. Products carry
 * `__price_matrix_model`. An orders page whose JSON would pass the size cap (6 MB) is answered
 * 500 `response_too_large`, or cut at a record boundary under `ordersOverCap: 'truncate'`.
 */
import type { CollectionName } from '../../../schema/collections.js';
import type { SimRecord } from '../../record.js';
import type { Handler, HandlerContext } from '../handler.js';
import { parsePageQuery, selectPage } from '../pagination.js';
import { errorReply, ok, type Reply } from '../respond.js';
import { toWire } from '../wire.js';
import { hydrateProduct } from './hydrate.js';

/** The list handler of one collection. */
export function listHandler(collection: CollectionName): Handler {
  return (ctx, req) => {
    const q = parsePageQuery(collection, req.query);
    if ('status' in q) return q;
    let records = selectPage(ctx.store.collection(collection), q, ctx.switches.idStartInclusive);
    if (collection === 'products') records = records.map((r) => hydrateProduct(ctx.store, r));
    if (collection === 'orders') return ordersPage(ctx, records);
    return ok(toWire(records, ctx.switches, collection));
  };
}

/** `GET {base}/categories` (and `/categories/list`): root categories with nested `children`. */
export const categoriesHandler: Handler = (ctx) => ok(toWire(ctx.store.categories(), ctx.switches, 'categories'));

function ordersPage(ctx: HandlerContext, records: SimRecord[]): Reply {
  const cap = ctx.switches.ordersMaxBytes;
  const encoded = Buffer.from(toWire(records, ctx.switches, 'orders'));
  const bytes = encoded.length;
  if (bytes <= cap) return ok(encoded);
  if (ctx.switches.ordersOverCap === 'error') {
    return errorReply(500, 'response_too_large', `orders: a page of ${records.length} orders is ${bytes} bytes of JSON, over the ${cap}-byte response cap; ask for a smaller limit`);
  }
  const parts: string[] = [];
  let size = 2;
  for (const record of records) {
    const part = toWire(record, ctx.switches, 'orders');
    const add = Buffer.byteLength(part) + (parts.length > 0 ? 1 : 0);
    if (size + add > cap) break;
    parts.push(part);
    size += add;
  }
  return ok(`[${parts.join(',')}]`);
}
