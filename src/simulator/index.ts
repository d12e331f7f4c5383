/**
 * `pos-cloud-mirror/simulator` (Node only): a faithful stand-in for the point-of-sale cloud
 * service, for tests, examples and benchmarks. It shares only `schema`, `ids` and `json` with the
 * library, so it can catch the client's, sync's and mirror's mistakes.
 */
export { createSimulator, type Simulator } from './create-simulator.js';
export { SIMULATOR_DEFAULTS, NO_FAULTS, tokenForSeed, type SimulatorOptions } from './options.js';
export { DEFAULT_SWITCHES, type SwitchOptions, type Switches } from './switches.js';
export type { FaultOptions } from './http/faults.js';
export { RequestLog, type LoggedRequest, type RequestFault, type FaultCounts } from './http/request-log.js';
export { SIZE_PRESETS, MAX_TOTAL_RECORDS, type SizeOption, type SizeCounts } from './size.js';
export { SimStore, type Committed } from './store/sim-store.js';
export type { SellOptions, Sale } from './store/sell.js';
export type { MoveStockOptions, StockMove } from './store/move-stock.js';
export type { ActivityOptions } from './store/activity.js';
export type { CategoryNode } from './store/category-tree.js';
export type { SimRecord } from './record.js';
export { PRIVATE_TABLE_IDS } from './sim-ids.js';
export { PAYMENT_CODES } from './tenant/payment-codes.js';
export { STOCK_HISTORY_TYPES } from './tenant/stock.js';
export { LATEST_ORDERS } from './queries/latest-orders.js';
export { ORDER_HISTORY_MAX_ROWS } from './queries/order-history.js';
