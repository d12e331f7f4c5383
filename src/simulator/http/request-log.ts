/**
 * What reached the simulator: a counter per route (`"GET /orders"`, `"POST /products"`,
 * `"GET /products/:id"`), a bounded log of recent requests (method, path, query, status, bytes,
 * headers without Authorization), and how many times each record id arrived in a POST that was
 * applied, for "exactly once" checks.
 */
import type { Id } from '../../ids/id.js';

/** A fault injected into one request: a 429, a 500, a connection dropped after handling, a cut body. */
export type RequestFault = 'rate_limited' | 'error' | 'dropped' | 'truncated';

/** How many requests each kind of fault hit, and how many were delayed by `latencyMs`. */
export type FaultCounts = Record<RequestFault | 'delayed', number>;

/** One logged request. */
export interface LoggedRequest {
  /** 1, 2, 3... in arrival order. */
  seq: number;
  method: string;
  /** Path as requested (with the base path), without the query. */
  path: string;
  /** Route pattern, e.g. `GET /orders/latest/:id_cash_register`; `GET (unknown)` when none matched. */
  route: string;
  query: Record<string, string>;
  /** Request headers, lower-case names, Authorization left out. */
  headers: Record<string, string>;
  /** Status sent; 0 when the connection was dropped. */
  status: number;
  /** Bytes of the response body sent. */
  bytes: number;
  /** A fault injected into this request, if any. */
  fault?: RequestFault;
  /** The latency the fault knobs added before handling it, in ms (absent when none). */
  delayedMs?: number;
  /** Records a POST stored: ids in body order and which of them were created. */
  written?: { collection: string; ids: Id[]; created: Id[] };
}

/** Counters and recent requests. */
export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private readonly perRoute = new Map<string, number>();
  private readonly posted = new Map<string, number>();
  private faulted: FaultCounts = noFaults();
  private seq = 0;

  /** @param capacity - how many recent requests to keep (older ones drop off; counters keep counting) */
  constructor(private readonly capacity = 1000) {}

  /** Adds a finished request. */
  add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const logged: LoggedRequest = { seq: ++this.seq, ...entry };
    this.entries.push(logged);
    if (this.entries.length > this.capacity) this.entries.shift();
    this.perRoute.set(entry.route, (this.perRoute.get(entry.route) ?? 0) + 1);
    if (entry.fault) this.faulted[entry.fault]++;
    if (entry.delayedMs) this.faulted.delayed++;
    if (entry.written) {
      for (const id of entry.written.ids) {
        const key = `${entry.written.collection}/${id}`;
        this.posted.set(key, (this.posted.get(key) ?? 0) + 1);
      }
    }
    return logged;
  }

  /** Requests of one route (e.g. `"POST /orders"`), or all requests when none is given. */
  count(route?: string): number {
    if (route === undefined) return this.seq;
    return this.perRoute.get(route) ?? 0;
  }

  /** How many requests each kind of fault hit since the start (or the last `clear()`), however many the log keeps. */
  faultCounts(): FaultCounts {
    return { ...this.faulted };
  }

  /** Counts per route. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.perRoute);
  }

  /** The most recent requests, oldest first (at most `n`). */
  recent(n = this.capacity): LoggedRequest[] {
    return this.entries.slice(-n);
  }

  /** The last request, if any. */
  last(): LoggedRequest | undefined {
    return this.entries[this.entries.length - 1];
  }

  /** Headers of the last request (without Authorization). */
  lastHeaders(): Record<string, string> | undefined {
    return this.last()?.headers;
  }

  /** How many applied POSTs carried the record `id` of `collection` (creates and updates). */
  timesPosted(collection: string, id: Id): number {
    return this.posted.get(`${collection}/${id}`) ?? 0;
  }

  /** Every record id POSTed to `collection` with how many times it arrived. */
  postedIds(collection: string): Map<Id, number> {
    const out = new Map<Id, number>();
    const prefix = `${collection}/`;
    for (const [key, n] of this.posted) if (key.startsWith(prefix)) out.set(key.slice(prefix.length), n);
    return out;
  }

  /** Forgets everything (counters too). */
  clear(): void {
    this.entries.length = 0;
    this.perRoute.clear();
    this.posted.clear();
    this.faulted = noFaults();
    this.seq = 0;
  }
}

function noFaults(): FaultCounts {
  return { rate_limited: 0, error: 0, dropped: 0, truncated: 0, delayed: 0 };
}
