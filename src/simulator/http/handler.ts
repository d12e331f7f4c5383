/** The shape of the simulator's route handlers. */
import type { IncomingHttpHeaders } from 'node:http';
import type { SimStore } from '../store/sim-store.js';
import type { Switches } from '../switches.js';
import type { Reply } from './respond.js';

/** What every handler may use. */
export interface HandlerContext {
  store: SimStore;
  switches: Readonly<Switches>;
}

/** One routed request. */
export interface RouteRequest {
  /** Path parameters by name (`id`, `id_cash_register`...). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Raw body (empty for GET). */
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A route handler. */
export type Handler = (ctx: HandlerContext, req: RouteRequest) => Reply;
