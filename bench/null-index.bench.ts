/**
 * What fake-indexeddb's exceptions cost when an indexed field holds no key. To compute a record's
 * index entries it builds a `DataError` (a `DOMException`, stack trace included) for every indexed
 * field that is null, and for every one that is absent too (fake-indexeddb 6: a missing key path
 * gives `undefined`, which is no key either). Customers have two indexed fields that are often null
 * (email, barcode). A Dexie `bulkPut` of 100,000 customers into the customers table of a mirror
 * whose app looks customers up by them (`indexes: { customers: ['email', 'barcode', 'lastname'] }`;
 * the defaults index none of them), in pages of 400, with the customers stored three ways:
 *
 * - as served: the null fields kept (what the mirror stores);
 * - null fields left out of the stored object (restored as null on reading, in a middleware);
 * - nulls stored as `[]` under multi-entry indexes (`*email`): the one form fake-indexeddb indexes
 *   without an exception, with the same index entries.
 *
 * CPU time of this process (the machine is shared), rounds interleaved, medians; then one profiled
 * round of each, for the share of the time spent building those exceptions.
 *
 *   npm run bench -- null-index            ROUNDS=5
 */
import { profileShare } from './cpu-profile.js';
import { allStrictPages } from './peers/strict-page.js';
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { gc, median } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 5));
const CUSTOMERS = smokeOr(2_000, 100_000);

type Row = Record<string, unknown>;
type Variant = 'as served' | 'null fields absent' | 'nulls as [] under *field';
const VARIANTS: readonly Variant[] = ['as served', 'null fields absent', 'nulls as [] under *field'];

const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
const { Dexie } = await import('dexie');
const { buildStores } = await import('../src/db/stores.js');

const store = buildStores({ customers: ['email', 'barcode', 'lastname'] }).customers!;
const indexed = store.split(',').map((s) => s.trim()).filter((s) => s !== 'id' && !s.startsWith('['));
const multiStore = store.split(',').map((s) => s.trim()).map((s) => (indexed.includes(s) ? `*${s}` : s)).join(', ');

const rows = await served();
const data: Record<Variant, Row[]> = {
  'as served': rows,
  'null fields absent': rows.map((r) => reshape(r, (copy, f) => delete copy[f])),
  'nulls as [] under *field': rows.map((r) => reshape(r, (copy, f) => (copy[f] = []))),
};
const nulls = indexed.map((f) => `${f} ${rows.filter((r) => r[f] === null).length.toLocaleString('en-US')}`).join(', ');
console.log(`${rows.length.toLocaleString('en-US')} customers; null indexed fields: ${nulls}${SMOKE_NOTE}`);

let seq = 0;
async function bulkPut(variant: Variant): Promise<number> {
  const db = new Dexie(`null-index-${++seq}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  db.version(1).stores({ customers: variant === 'nulls as [] under *field' ? multiStore : store });
  await db.open();
  const table = db.table('customers');
  const records = data[variant];
  gc();
  const before = process.cpuUsage();
  for (let i = 0; i < records.length; i += 400) await table.bulkPut(records.slice(i, i + 400));
  const used = process.cpuUsage(before);
  const stored = await table.where('email').above('').count();
  db.close();
  if (stored !== rows.filter((r) => typeof r.email === 'string').length) throw new Error(`${variant}: ${stored} email index entries`);
  return (used.user + used.system) / 1000;
}

const cpu = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
for (let round = 0; round < ROUNDS; round++) for (const v of VARIANTS) cpu[v].push(await bulkPut(v));
const base = median(cpu['as served']);
for (const v of VARIANTS) {
  const ms = median(cpu[v]);
  const profiled = await profileShare(() => bulkPut(v), (f) => f.url.endsWith('per_context/domexception') || f.url.endsWith('fake-indexeddb/build/esm/lib/errors.js'));
  const share = (100 * profiled.matchedMs) / profiled.totalMs;
  console.log(
    `${v.padEnd(26)} CPU ${ms.toFixed(0).padStart(5)} ms (${cpu[v].map((x) => x.toFixed(0)).join(', ')}), ${(base / ms).toFixed(2)}x as served;` +
      ` building DataErrors: ${share.toFixed(1)}% of a profiled run`,
  );
}

/** The customers as the mirror reads them: fetched from a simulator and read by the strict read face. */
async function served(): Promise<Row[]> {
  const server = await forkSimulator({ size: { customers: CUSTOMERS }, seed: 9 });
  try {
    const out: Row[] = [];
    for await (const page of allStrictPages(server, 'customers', 400)) out.push(...page.records);
    return out;
  } finally {
    server.stop();
  }
}

/** A copy of `row` with `change` applied to each indexed field that is null. */
function reshape(row: Row, change: (copy: Row, field: string) => void): Row {
  const copy = { ...row };
  for (const f of indexed) if (copy[f] === null) change(copy, f);
  return copy;
}
