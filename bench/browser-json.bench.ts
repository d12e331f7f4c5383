/**
 * parseJson and stringifyJson in each browser engine (Chromium, Firefox, WebKit, through
 * `scripts/engines/`), against the engine's native JSON.parse and JSON.stringify on the same ~6 MB
 * document of order-like records with big-integer ids, interleaved (native, ours, native, ours...)
 * over several rounds. Prints median MB/s and ratios. Also parseJsonBytes on the document's UTF-8
 * bytes against TextDecoder + JSON.parse: what the client does with a response body.
 *
 * `npm run bench -- browser-json`; ENGINES=chromium,firefox,webkit (default all three).
 */
import { launchEngine, selectedEngines } from '../scripts/engines/index.js';
import { buildBenchPage, runJob } from './browser/bench-page.js';
import type { JsonResult } from './browser/in-page/json.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';

const ROUNDS = smokeOr(1, 9);
const TARGET_BYTES = smokeOr(400 * 1024, 6 * 1024 * 1024);

/** A deterministic JSON array of TARGET_BYTES (~6 MB) of orders; ids above 2^53 written as bare integers. */
function makeDocument(): string {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const bigId = () => (9007199254740993n + BigInt(Math.floor(rand() * 1e15)) * 10n).toString();
  const names = ['Káva s sebou', 'Espresso "doppio"', 'Chléb\\kváskový', 'Zákusek – věneček', 'Pivo 0,5 l'];
  const parts: string[] = [];
  let bytes = 2;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const text =
      `{"id":${bigId()},"id_c":123456,"_t":"orders","_v":${1700000000000 + i},"_d":0,"pgx":"o-${i}",` +
      `"id_shop":${bigId()},"id_cash_register":${bigId()},"id_shift":${bigId()},"id_employee":${bigId()},` +
      `"id_employee_served":${bigId()},"id_park_location":${bigId()},"id_customer":${i % 3 ? bigId() : 'null'},` +
      `"currency":"CZK","total_paid_tax_incl":${Math.floor(rand() * 5e6)},"total_paid_tax_excl":${Math.floor(rand() * 4e6)},` +
      `"total_tip":0,"dine_in":${i % 2 === 0},"conversion_rate":1.0,"date_created":${1700000000000 + i * 1000},` +
      `"date_canceled":null,"note":${JSON.stringify(names[i % names.length])},"short_code":"${String(i % 999).padStart(3, '0')}",` +
      `"order_serial_number":${i},"_u_dyn":${1700000000000 + i}}`;
    parts.push(text);
    bytes += text.length + 1;
  }
  return `[${parts.join(',')}]`;
}

const page = await buildBenchPage();
await page.addFile('orders.json', makeDocument());
const server = await page.serve();
try {
  for (const engine of selectedEngines()) {
    const browser = await launchEngine(engine);
    try {
      const tab = await server.open(browser);
      const times = await runJob<JsonResult>(tab, 'jsonRounds', { documentUrl: server.url('orders.json'), rounds: ROUNDS });
      const mb = times.chars / 1e6;
      const rate = (ms: number[]) => mb / (median(ms) / 1000);
      const line = (label: string, ours: number[], native: number[]) =>
        `  ${label.padEnd(26)} ours ${rate(ours).toFixed(0).padStart(5)} MB/s   native ${rate(native).toFixed(0).padStart(5)} MB/s   ratio ${(median(native) / median(ours)).toFixed(2)}x`;
      console.log(`${browser.version}: ${mb.toFixed(1)} MB of orders with big-integer ids, median of ${ROUNDS} interleaved rounds${SMOKE_NOTE}`);
      console.log(line('parseJson vs JSON.parse', times.parse, times.nativeParse));
      console.log(line('parseJsonBytes vs decode+', times.bytes, times.nativeBytes));
      console.log(line('stringifyJson vs native', times.stringify, times.nativeStringify));
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.stop();
}
