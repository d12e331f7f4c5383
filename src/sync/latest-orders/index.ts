/**
 * The pollers of `orders/latest/{id_cash_register}` (`Mirror.watchLatestOrders`): a register's
 * newest sale shown within seconds, applied through the pull's rules.
 */
export { createLatestOrdersWatch, LATEST_ORDERS_INTERVAL_MS, type LatestOrdersWatch, type LatestOrdersWatchOptions } from './latest-orders-watch.js';
