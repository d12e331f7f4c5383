import { PosCloudError, type PosCloudErrorCode, type PosCloudErrorOptions } from './pos-cloud-error.js';

/** Options of {@link OutsideHistoryWindowError}. */
export interface OutsideHistoryWindowErrorOptions extends PosCloudErrorOptions {
  /** The collection asked for. */
  collection: string;
  /** The time (ms) the mirror holds the collection from: `status.historyEdge[collection]`. */
  edge: number;
  /** The earliest time (ms) the query asked for. */
  since: number;
}

/**
 * A query asked for records older than the mirror's history window keeps (the option
 * `historyWindow`): the mirror cannot answer it whole, so it does not answer it at all rather than
 * answer with a part. Ask again from {@link edge} for what the mirror holds, and ask the service
 * (online) for what is older: for orders, the order history report
 * (`client.orderHistory`, `POST /reports/generic/order_history`).
 */
export class OutsideHistoryWindowError extends PosCloudError {
  override name = 'OutsideHistoryWindowError';
  override readonly code: PosCloudErrorCode = 'outside-history-window';
  /** The collection asked for. */
  readonly collection: string;
  /** The time (ms) the mirror holds the collection from: records created since are all here. */
  readonly edge: number;
  /** The earliest time (ms) the query asked for, before {@link edge}. */
  readonly since: number;

  constructor(message: string, options: OutsideHistoryWindowErrorOptions) {
    super(message, options);
    this.collection = options.collection;
    this.edge = options.edge;
    this.since = options.since;
  }
}

/** True for an {@link OutsideHistoryWindowError}. */
export function isOutsideHistoryWindowError(error: unknown): error is OutsideHistoryWindowError {
  return error instanceof OutsideHistoryWindowError;
}
