/**
 * The gap switches: where the spec is silent the simulator picks one behaviour, and each switch
 * selects the other, so clients can be tested against both.
 */
import { ValidationError, formatIssues, type ValidationIssue } from '../errors/index.js';
import { isCollectionName, type CollectionName } from '../schema/collections.js';

/** The switches, all optional. */
export interface SwitchOptions {
  /**
   * Repeat the `id_start` record itself at the head of the next page.
   * @default false (the page continues after it)
   */
  idStartInclusive?: boolean;
  /**
   * Send ids as JSON strings instead of bare integers.
   * @default false
   */
  idsAsStrings?: boolean;
  /**
   * Write values the way a loosely typed backend does: every number as a JSON string (`"12500"`,
   * `"1.21"`, ids and `_v` too) and every boolean as `0` or `1`, in every response body.
   * @default false
   */
  looseWire?: boolean;
  /**
   * What POST answers: the stored records in body order (`records`), their ids (`ids`: an array
   * for an array body, `{ "id": ... }` for an object body), or an empty 200 body (`empty`).
   * @default 'records'
   */
  postResponse?: 'records' | 'ids' | 'empty';
  /**
   * Serve only the earlier `/list` and `orders/latest` forms: the current list paths of the
   * collections that have a `/list` form, and `orders/latest/{id_cash_register}`, answer 404.
   * @default false
   */
  legacyPathsOnly?: boolean;
  /**
   * An orders page over the size cap is answered 500 (`error`) or cut at a record boundary
   * (`truncate`: fewer records than `limit`, which a client may take for the last page).
   * @default 'error'
   */
  ordersOverCap?: 'error' | 'truncate';
  /**
   * The orders response size cap, in bytes of JSON.
   * @default 6 * 1024 * 1024 (the spec's 6 MB)
   */
  ordersMaxBytes?: number;
  /**
   * Collections this tenant lacks (the API "runs in a limited mode"): every path of theirs (lists
   * in both forms, POST, single records) answers 404. `'categories'` may be listed too.
   * @default []
   */
  missingCollections?: readonly (CollectionName | 'categories')[];
  /**
   * Collections whose list answers 500 on every request, at every path form: a persistent
   * failure of one endpoint. POSTs still work. `'categories'` may be listed too.
   * @default []
   */
  failingCollections?: readonly (CollectionName | 'categories')[];
}

/** Every switch with its value. */
export type Switches = Required<SwitchOptions>;

/** The default switches. */
export const DEFAULT_SWITCHES: Readonly<Switches> = {
  idStartInclusive: false,
  idsAsStrings: false,
  looseWire: false,
  postResponse: 'records',
  legacyPathsOnly: false,
  ordersOverCap: 'error',
  ordersMaxBytes: 6 * 1024 * 1024,
  missingCollections: [],
  failingCollections: [],
};

/** Applies `changes` to `current`, validating each; throws ValidationError naming bad ones. */
export function applySwitches(current: Switches, changes: SwitchOptions): Switches {
  const issues: ValidationIssue[] = [];
  const next = { ...current };
  const bool = (key: 'idStartInclusive' | 'idsAsStrings' | 'legacyPathsOnly' | 'looseWire'): void => {
    const value = changes[key];
    if (value === undefined) return;
    if (typeof value === 'boolean') next[key] = value;
    else issues.push({ path: [key], message: `expected true or false, got ${String(value)}` });
  };
  bool('idStartInclusive');
  bool('idsAsStrings');
  bool('legacyPathsOnly');
  bool('looseWire');
  if (changes.postResponse !== undefined) {
    if (['records', 'ids', 'empty'].includes(changes.postResponse)) next.postResponse = changes.postResponse;
    else issues.push({ path: ['postResponse'], message: `expected records, ids or empty, got ${changes.postResponse}` });
  }
  if (changes.ordersOverCap !== undefined) {
    if (['error', 'truncate'].includes(changes.ordersOverCap)) next.ordersOverCap = changes.ordersOverCap;
    else issues.push({ path: ['ordersOverCap'], message: `expected error or truncate, got ${changes.ordersOverCap}` });
  }
  if (changes.ordersMaxBytes !== undefined) {
    if (Number.isSafeInteger(changes.ordersMaxBytes) && changes.ordersMaxBytes >= 2) next.ordersMaxBytes = changes.ordersMaxBytes;
    else issues.push({ path: ['ordersMaxBytes'], message: `expected a whole number of bytes >= 2, got ${String(changes.ordersMaxBytes)}` });
  }
  for (const key of ['missingCollections', 'failingCollections'] as const) {
    const value = changes[key];
    if (value === undefined) continue;
    const valid = Array.isArray(value) && value.every((c: unknown) => c === 'categories' || isCollectionName(c));
    if (valid) next[key] = [...value];
    else issues.push({ path: [key], message: `expected an array of collection names (or 'categories'), got ${String(value)}` });
  }
  if (issues.length > 0) throw new ValidationError(`simulator options: ${formatIssues(issues)}`, { issues });
  return next;
}
