import type { ValidationIssue } from '../errors/index.js';
import { tryToId, type Id } from '../ids/id.js';
import { assertNoIssues } from './endpoint-args.js';

/** Body of the warehouse_status report. */
export interface WarehouseStatusBody {
  /** The warehouse to report on (required). */
  id_warehouse: Id;
  /** IANA zone name, e.g. `Europe/Prague`. */
  timezone?: string;
}

/** Body of the order_history report. The spec does not say which fields are required; none is enforced. */
export interface OrderHistoryBody {
  /** Start of the period, ms. */
  date_start?: number;
  /** End of the period, ms. */
  date_end?: number;
  /** IANA zone name. */
  timezone?: string;
  id_cash_register?: Id;
  id_shop?: Id;
}

/** Checks a warehouse_status body and returns it with its id canonical. */
export function prepareWarehouseStatusBody(body: WarehouseStatusBody, where: string): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  const fields = asObject(body, issues);
  const id = tryToId(fields.id_warehouse);
  if (id === undefined || id === '0') issues.push({ path: ['id_warehouse'], message: 'required: a non-zero record id' });
  checkTimezone(fields.timezone, issues);
  assertNoIssues(issues, where);
  return { ...fields, id_warehouse: id };
}

/** Checks an order_history body and returns it with its ids canonical. */
export function prepareOrderHistoryBody(body: OrderHistoryBody, where: string): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  const fields = asObject(body, issues);
  const out: Record<string, unknown> = { ...fields };
  for (const key of ['date_start', 'date_end'] as const) {
    const value = fields[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      issues.push({ path: [key], message: 'must be a time in ms (integer >= 0)' });
    }
  }
  for (const key of ['id_cash_register', 'id_shop'] as const) {
    if (fields[key] === undefined) continue;
    const id = tryToId(fields[key]);
    if (id === undefined) issues.push({ path: [key], message: 'must be a record id' });
    else out[key] = id;
  }
  checkTimezone(fields.timezone, issues);
  assertNoIssues(issues, where);
  return out;
}

function asObject(body: unknown, issues: ValidationIssue[]): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  issues.push({ path: [], message: 'expected an object' });
  return {};
}

function checkTimezone(value: unknown, issues: ValidationIssue[]): void {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    issues.push({ path: ['timezone'], message: 'must be an IANA zone name such as Europe/Prague' });
  }
}
