/**
 * The REST client layer: every endpoint of the service over ky, with auth, pagination, retries
 * and typed errors. Imports only from errors, ids, schema and json.
 */
export { createClient } from './create-client.js';
export type { Client, PagesQuery, LatestOrdersQuery, SaveOptions } from './client.js';
export { CLIENT_DEFAULTS, type ClientOptions, type RetryEvent, type RetryMethod, type RetryOptions } from './client-options.js';
export type { ListQuery, Direction } from './list-query.js';
export type { CallOptions } from './requester.js';
export type { Page, RecordPage, RejectedRecord } from './record-page.js';
export type { WarehouseStatusBody, OrderHistoryBody } from './reports.js';
export { PaginationError, isPaginationError } from './pagination-error.js';
export { parseRetryAfter } from './retry-after.js';
export { ORDERS_MAX_RESPONSE_BYTES } from './page-sizer.js';
