/**
 * The first half of a write: check one POST body (or register edit) against the collection's
 * write schema without touching the store, so that a batch can be all-or-nothing.
 */
import { isValidationError, kindOf, type ValidationIssue } from '../../errors/index.js';
import { tryToId, type Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { validateWrite } from '../../schema/index.js';
import { parseIdText } from '../id-index.js';
import type { SimRecord } from '../record.js';

/** A body that passed validation: its fields and the id it names (undefined: create with a new id). */
export interface PreparedWrite {
  collection: CollectionName;
  id: Id | undefined;
  fields: SimRecord;
}

/** The outcome of preparing one body: ready to commit, or the issues that reject it. */
export type PrepareResult = { ok: true; write: PreparedWrite } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates one body for `collection` as the service would: an object, carrying `_t` equal to the
 * table name (spec: "A POST body for a resource carries `_t`"), a usable `id` when one is given
 * (missing or 0 means create), and every field rule of the write schema.
 */
export function prepareWrite(collection: CollectionName, body: unknown, now: number): PrepareResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, issues: [{ path: [], message: `expected a record object, got ${kindOf(body)}` }] };
  }
  const input = body as SimRecord;
  const issues: ValidationIssue[] = [];
  if (input._t === undefined) issues.push({ path: ['_t'], message: `required: a POST body carries _t "${collection}"` });
  let id: Id | undefined;
  if (input.id !== undefined && input.id !== null) {
    // tryToId takes numbers, bigints and zero-padded digit strings; parseIdText adds the 64-bit bound.
    const canonical = tryToId(input.id);
    const parsed = canonical === undefined ? undefined : parseIdText(canonical);
    if (parsed === undefined) issues.push({ path: ['id'], message: `not an id: ${JSON.stringify(String(input.id)).slice(0, 40)}` });
    else if (parsed !== '0') id = parsed;
  }
  let fields: SimRecord | undefined;
  try {
    // validateWrite already puts every id field in canonical string form.
    fields = validateWrite(collection, input, { now });
    // `id_payment` is a payment-form code, stored as a number: the orders and order items schemas
    // require an integer; on a table whose schema does not describe it, digits sent as text.
    const code = fields.id_payment;
    if (typeof code === 'string' || typeof code === 'bigint') fields.id_payment = Number(code);
  } catch (error) {
    if (!isValidationError(error)) throw error;
    for (const issue of error.issues) if (!issues.some((i) => samePath(i.path, issue.path))) issues.push(issue);
  }
  if (issues.length > 0 || fields === undefined) return { ok: false, issues };
  return { ok: true, write: { collection, id, fields } };
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
