import type { MirrorDb } from '../../db/mirror-db.js';
import { describeValue, ValidationError } from '../../errors/index.js';
import { tryToId, type Id } from '../../ids/id.js';
import { MAX_TIMER_MS } from '../../schema/timer-limit.js';
import type { SyncEnvironment } from '../coordination/index.js';
import { applyReadRecords, quarantineRows } from '../pull/index.js';
import type { SyncClient } from '../index.js';

/** Delay between two polls of `watchLatestOrders` by default (ms). */
export const LATEST_ORDERS_INTERVAL_MS = 5_000;

/** Options of {@link createLatestOrdersWatch}. */
export interface LatestOrdersWatchOptions {
  db: MirrorDb;
  client: SyncClient;
  env: SyncEnvironment;
  /** Told of a failed poll (the status shows it as `lastError`). */
  onError(error: unknown): void;
}

/** The pollers of `orders/latest/{id_cash_register}` of one mirror. */
export interface LatestOrdersWatch {
  /** Starts a poller (see `Mirror.watchLatestOrders`); returns the function that stops it. */
  watch(idCashRegister: Id, opts?: { intervalMs?: number; idPayment?: number }): () => void;
  /** Stops every poller (on `close()`). */
  stopAll(): void;
}

/**
 * Creates a {@link LatestOrdersWatch}. Each poller asks every `intervalMs` and applies what it
 * finds through the pull's rules; orders the read schema refuses are quarantined, as a pull would.
 */
export function createLatestOrdersWatch(options: LatestOrdersWatchOptions): LatestOrdersWatch {
  const { db, client, env } = options;
  const watchers = new Set<() => void>();

  function watch(idCashRegister: Id, opts: { intervalMs?: number; idPayment?: number } = {}): () => void {
    const register = checkedRegister(idCashRegister);
    const intervalMs = checkedInterval(opts.intervalMs ?? LATEST_ORDERS_INTERVAL_MS);
    const controller = new AbortController();
    let timer: unknown;
    const poll = async () => {
      try {
        const orders = await client.latestOrders(register, {
          signal: controller.signal,
          ...(opts.idPayment !== undefined ? { idPayment: opts.idPayment } : {}),
        });
        await applyReadRecords(db, 'orders', orders, quarantineRows('orders', orders.rejected ?? [], env.now()));
      } catch (error) {
        if (!controller.signal.aborted) options.onError(error);
      }
      if (!controller.signal.aborted) timer = env.setTimeout(() => void poll(), intervalMs);
    };
    void poll();
    const stop = () => {
      controller.abort();
      if (timer !== undefined) env.clearTimeout(timer);
      watchers.delete(stop);
    };
    watchers.add(stop);
    return stop;
  }

  return {
    watch,
    stopAll() {
      for (const stop of [...watchers]) stop();
    },
  };
}

/** The register id as an `Id`, or a ValidationError: it goes into the path of every poll. */
function checkedRegister(idCashRegister: unknown): Id {
  const register = tryToId(idCashRegister);
  if (register === undefined || register === '0') {
    throw new ValidationError(`watchLatestOrders: idCashRegister must be a record id (digits), not ${describeValue(idCashRegister)}`, {
      issues: [{ path: ['idCashRegister'], message: 'must be a record id' }],
    });
  }
  return register;
}

/** The poll interval, or a ValidationError: 0 would hammer the server, over 2^31−1 ms fires at once. */
function checkedInterval(intervalMs: unknown): number {
  if (typeof intervalMs !== 'number' || !Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > MAX_TIMER_MS) {
    throw new ValidationError(`watchLatestOrders: intervalMs must be an integer from 1 to ${MAX_TIMER_MS}, not ${describeValue(intervalMs)}`, {
      issues: [{ path: ['intervalMs'], message: `must be an integer from 1 to ${MAX_TIMER_MS}` }],
    });
  }
  return intervalMs;
}
