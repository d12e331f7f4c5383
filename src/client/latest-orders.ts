import { ValidationError } from '../errors/index.js';
import { tryToId } from '../ids/id.js';
import type { Order } from '../schema/index.js';
import type { LatestOrdersQuery } from './client.js';
import { checkCallOptions, requireId } from './endpoint-args.js';
import type { PathForms } from './path-forms.js';
import { readWholeRecordPage, type RecordPage } from './record-page.js';
import type { JsonResponse, Requester } from './requester.js';
import type { RequestSpec } from './request-spec.js';

/**
 * `GET orders/latest/{id_cash_register}`, falling back to the earlier `orders/latest`, which has no
 * register in its path: the register is then also sent as `id_cash_register` in the query and the
 * answer is filtered to its orders (the earlier form may hold other registers' orders, so fewer
 * than 40 can remain).
 */
export async function fetchLatestOrders(request: Requester, forms: PathForms, idCashRegister: unknown, query: LatestOrdersQuery = {}): Promise<RecordPage<Order>> {
  const where = 'latestOrders';
  const register = requireId(idCashRegister, 'idCashRegister', where);
  const call = checkCallOptions(query, where);
  const { idPayment } = query;
  if (idPayment !== undefined && !(Number.isSafeInteger(idPayment) && idPayment >= 0)) {
    throw new ValidationError(`${where}: idPayment must be an integer >= 0`, { issues: [{ path: ['idPayment'], message: 'must be an integer >= 0' }] });
  }
  const payment: Record<string, string> = idPayment === undefined ? {} : { id_payment: String(idPayment) };
  const current: RequestSpec = { method: 'GET', path: `orders/latest/${register}`, query: payment };
  const legacy: RequestSpec = { method: 'GET', path: 'orders/latest', query: { id_cash_register: register, ...payment } };

  const sent = { legacy: false };
  const send = (spec: RequestSpec): Promise<JsonResponse> => {
    sent.legacy = spec === legacy;
    return request(spec, { idempotent: true }, call);
  };
  // The current form answers 404 for an unknown register too: the earlier form is proven only
  // by an answer that holds orders of this register.
  const proves = (response: JsonResponse): boolean =>
    Array.isArray(response.value) && response.value.some((raw) => tryToId((raw as { id_cash_register?: unknown } | null)?.id_cash_register) === register);
  const response = await forms.send('orders/latest', { current, legacy }, send, proves);

  return readWholeRecordPage('orders', response, sent.legacy ? (order) => order.id_cash_register === register : undefined);
}
