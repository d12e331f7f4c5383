/**
 * Speed of the strict JSON layer against the engine's own JSON, measured in the same process:
 *
 * - parseJson vs JSON.parse on a ~6 MB array of order-like records with 10 big-integer ids each
 *   (ids > 2^53 as bare integers), then on the same records with small ids (no quoting needed),
 *   then on single pages of 100 and 400 of those records (what the client parses per request);
 * - parseJsonBytes on the UTF-8 bytes of the first text, what the client does with a response
 *   body, against decoding them and running JSON.parse, and against decoding then parseJson;
 * - json-bigint (storeAsString) on the first text, for scale;
 * - stringifyJson vs JSON.stringify on the parsed records, alone and followed by the UTF-8
 *   encoding a request or response body needs.
 *
 * Runs alternate between the contenders (A B, then B A) with a GC before each, over several
 * rounds; medians are reported as MB/s (UTF-8 bytes of the text) and as a ratio to native.
 * Run with `npm run bench -- json`.
 */
import JSONbig from 'json-bigint';
import { composeId } from '../src/ids/index.js';
import { parseJson, parseJsonBytes, stringifyJson } from '../src/json/index.js';
import { Rng } from '../src/simulator/rng.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { gc, median } from './stats.js';

const TARGET_BYTES = smokeOr(400_000, 6_000_000);
const ROUNDS = smokeOr(1, 15);
/** Rounds of json-bigint, for scale only (slow). */
const SCALE_ROUNDS = smokeOr(1, 5);
/** Text parsed per sample when a sample parses one page many times. */
const PAGE_SAMPLE_BYTES = smokeOr(300_000, 3_000_000);

const NOTES = [
  'Stůl 4, bez cibule',
  'Zákazník platí "kartou"',
  'Řízek s bramborovým salátem\nna odnos',
  'Cesta: C:\\pokladna\\export',
  'Tab\toddělený text',
  'Pivo 12° 🍺 ×2',
  '日本茶 (green tea)',
  'plain note',
  'Čaj – zelený, «bio»',
];

function makeRecords(bigIds: boolean): Record<string, unknown>[] {
  // Seeded (mulberry32), so every run measures the same text.
  const rng = new Rng(bigIds ? 7 : 8);
  const int = (max: number) => Math.floor(rng.next() * max);
  const start = Date.UTC(2025, 0, 1);
  const year = 365 * 24 * 3600 * 1000;
  // Ids of 2025-2026 are about 1.0e16 to 1.2e16, past 2^53; small ones are plain safe integers.
  const id = (tableId: number) =>
    bigIds ? composeId({ createdAt: start + int(year), tableId, random: int(52) * 10 }) : String(1 + int(1_000_000));
  const records: Record<string, unknown>[] = [];
  let bytes = 2;
  while (bytes < TARGET_BYTES) {
    const created = start + int(year);
    const paid = int(10) < 8;
    const record = {
      id: id(7),
      id_c: 1042,
      _t: 'orders',
      _v: created + int(100_000),
      _d: 0,
      pgx: `1042|${int(1e9)}`,
      date_created: created,
      id_shop: id(40),
      id_cash_register: id(41),
      id_shift: id(43),
      id_employee: id(4),
      id_employee_served: id(4),
      id_park_location: id(42),
      id_customer: int(3) === 0 ? null : id(2),
      id_address_invoice: id(2),
      id_address_delivery: id(2),
      id_payment: [221, 222, 238][int(3)],
      currency: 'CZK',
      dine_in: int(2) === 0,
      conversion_rate: 1,
      total_paid_tax_incl: int(5_000_000),
      total_paid_tax_excl: int(4_000_000),
      total_discounts_tax_incl: int(4) === 0 ? int(50_000) : 0,
      total_tip: 0,
      total_products: 1 + int(12),
      date_paid: paid ? created + int(600_000) : null,
      date_closed: paid ? created + int(900_000) : null,
      date_canceled: null,
      invoice_number: paid ? 2025_000_000 + int(1_000_000) : null,
      short_code: `A${int(1000)}`,
      note: int(3) === 0 ? null : NOTES[int(NOTES.length)],
      barcode: `00${int(1e10)}`,
      tags: null,
      _u_dyn: created + int(1_000_000),
    };
    records.push(record);
    bytes += Buffer.byteLength(JSON.stringify(record)) + 1;
  }
  return records;
}

interface Contender {
  name: string;
  run: () => unknown;
}

/** Median ms of each contender, alternating their order every round. */
function measure(contenders: Contender[], rounds: number): Map<string, number> {
  const times = new Map(contenders.map((c) => [c.name, [] as number[]]));
  for (const c of contenders) c.run(); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const c of order) {
      gc();
      const t0 = performance.now();
      c.run();
      times.get(c.name)!.push(performance.now() - t0);
    }
  }
  return new Map([...times].map(([name, list]) => [name, median(list)]));
}

function report(title: string, bytes: number, medians: Map<string, number>, baseline: string): void {
  const base = medians.get(baseline)!;
  console.log(`\n${title} (${(bytes / 1e6).toFixed(2)} MB)`);
  for (const [name, ms] of medians) {
    const mbs = bytes / 1e6 / (ms / 1000);
    console.log(`  ${name.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${mbs.toFixed(0).padStart(5)} MB/s  ${(base / ms).toFixed(2)}x ${baseline}`);
  }
}

function check(condition: boolean, message: string): void {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
}

// Texts, and a correctness check before any timing: the ids must come back exact.
const records = makeRecords(true);
const text = stringifyJson(records);
const bytes = Buffer.byteLength(text);
const parsed = parseJson(text) as Record<string, unknown>[];
check(parsed.length === records.length && parsed.every((r, i) => r.id === records[i]!.id && r.id_shop === records[i]!.id_shop), 'parseJson lost id digits');
check(/"id":1\d{16},/.test(text), 'ids are not bare integers past 2^53 in the text');
const small = stringifyJson(makeRecords(false));
const smallBytes = Buffer.byteLength(small);
const jsonBig = JSONbig({ storeAsString: true });

console.log(`${records.length} records, ${(bytes / records.length).toFixed(0)} bytes each, 10 big-integer ids per record; ${ROUNDS} rounds, median${SMOKE_NOTE}`);

const parseBig = measure(
  [
    { name: 'JSON.parse (native)', run: () => JSON.parse(text) },
    { name: 'parseJson', run: () => parseJson(text) },
  ],
  ROUNDS,
);
report('parse, big-integer ids', bytes, parseBig, 'JSON.parse (native)');

const parseSmall = measure(
  [
    { name: 'JSON.parse (native)', run: () => JSON.parse(small) },
    { name: 'parseJson', run: () => parseJson(small) },
  ],
  ROUNDS,
);
report('parse, same records with small ids (nothing to quote)', smallBytes, parseSmall, 'JSON.parse (native)');

// What the client parses per request: one page of 100 or 400 records (many parses per sample).
for (const size of [100, 400]) {
  const page = stringifyJson(records.slice(0, size));
  const repeat = Math.ceil(PAGE_SAMPLE_BYTES / page.length);
  const pageParse = measure(
    [
      { name: 'JSON.parse (native)', run: () => { for (let i = 0; i < repeat; i++) JSON.parse(page); } },
      { name: 'parseJson', run: () => { for (let i = 0; i < repeat; i++) parseJson(page); } },
    ],
    ROUNDS,
  );
  report(`parse, one page of ${size} records, ${repeat} times per sample`, Buffer.byteLength(page) * repeat, pageParse, 'JSON.parse (native)');
}

// What the client does with a response body: bytes in, records out.
const body = new TextEncoder().encode(text);
const decoder = new TextDecoder();
check(JSON.stringify(parseJsonBytes(body)) === JSON.stringify(parsed), 'parseJsonBytes differs from parseJson');
const parseBytes = measure(
  [
    { name: 'decode + JSON.parse (native)', run: () => JSON.parse(decoder.decode(body)) },
    { name: 'parseJsonBytes', run: () => parseJsonBytes(body) },
    { name: 'decode + parseJson', run: () => parseJson(decoder.decode(body)) },
  ],
  ROUNDS,
);
report('parse the UTF-8 bytes of the big-integer text (a response body)', bytes, parseBytes, 'decode + JSON.parse (native)');

const parseScale = measure(
  [
    { name: 'JSON.parse (native)', run: () => JSON.parse(text) },
    { name: 'json-bigint storeAsString', run: () => jsonBig.parse(text) },
  ],
  SCALE_ROUNDS,
);
report('for scale: json-bigint on the big-integer text', bytes, parseScale, 'JSON.parse (native)');

const stringify = measure(
  [
    { name: 'JSON.stringify (native)', run: () => JSON.stringify(parsed) },
    { name: 'stringifyJson', run: () => stringifyJson(parsed) },
  ],
  ROUNDS,
);
const stringBytes = Buffer.byteLength(JSON.stringify(parsed));
report('stringify the parsed records (ids as strings)', stringBytes, stringify, 'JSON.stringify (native)');

// stringifyJson may return a rope that the consumer flattens; count that too, as an HTTP body does.
const toBytes = measure(
  [
    { name: 'JSON.stringify (native)', run: () => Buffer.from(JSON.stringify(parsed)) },
    { name: 'stringifyJson', run: () => Buffer.from(stringifyJson(parsed)) },
  ],
  ROUNDS,
);
report('stringify, then encode to UTF-8 bytes (a request or response body)', stringBytes, toBytes, 'JSON.stringify (native)');

const ratio = parseBig.get('JSON.parse (native)')! / parseBig.get('parseJson')!;
const ratioString = stringify.get('JSON.stringify (native)')! / stringify.get('stringifyJson')!;
const ratioStringifyBytes = toBytes.get('JSON.stringify (native)')! / toBytes.get('stringifyJson')!;
console.log(`\nparseJson: ${ratio.toFixed(2)}x native on big-integer records (target >= 0.5x: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
const ratioParseBytes = parseBytes.get('decode + JSON.parse (native)')! / parseBytes.get('parseJsonBytes')!;
console.log(`parseJsonBytes: ${ratioParseBytes.toFixed(2)}x decode + native JSON.parse on the same bytes (the client's path)`);
console.log(`stringifyJson: ${ratioString.toFixed(2)}x native (${ratioStringifyBytes.toFixed(2)}x when encoded to bytes)`);
