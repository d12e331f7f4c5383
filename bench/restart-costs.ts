/**
 * Where the time of a restart of the durable store goes: the categories of a CPU profile of the
 * restart process (self time of each function, grouped by what it does), as a table. Not a
 * benchmark itself: `mirror-sync-durable.bench.ts` uses it with `RESTART_PROFILE=1`.
 */
import { selfTimeBy, type CpuProfile } from './cpu-profile.js';

/** The part of a restart a function of the profile belongs to. */
export function restartCost({ functionName, url }: { functionName: string; url: string }): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)') return 'idle, or V8 outside JavaScript';
  if (functionName === 'deserialize' || (url === 'node:v8' && functionName.startsWith('read'))) return 'deserialising (V8)';
  if (functionName === 'serialize' || (url === 'node:v8' && functionName.startsWith('write'))) return 'serialising (V8)';
  if (url === '' && /^(writeBuffer|writeString|fsync|fdatasync|rename|open|close)$/.test(functionName)) return 'writing files, fsync';
  if (url === 'node:zlib' || /^(read|readSync|crc32)$/.test(functionName)) return 'reading files, checksums';
  if (/src\/node\/(store-contents|restore|record-file)\.ts$/.test(url)) return 'gathering records per store (snapshot, journal)';
  if (/src\/node\/(bulk-load|index-keys|key-order)\.ts$/.test(url)) return 'index entries: keys, sort';
  if (/fake-indexeddb\/.*binarySearchTree\.js$/.test(url)) return 'fake-indexeddb: building and searching trees';
  if (/fake-indexeddb\/.*(cloneValueForInsertion|FDBTransaction|FDBObjectStore|ObjectStore|Index|valueToKey\w*|extractKey|cmp|errors)\.js$/.test(url) || url.endsWith('per_context/domexception') || functionName === 'structuredClone') {
    return 'fake-indexeddb: one put per record (requests, clones, key checks, exceptions)';
  }
  if (/fake-indexeddb\/.*FDBCursor/.test(url)) return 'fake-indexeddb: cursors';
  if (/fake-indexeddb/.test(url)) return 'fake-indexeddb: other';
  if (/node_modules\/dexie\//.test(url)) return 'Dexie';
  if (/src\/(sync|mirror|client|db|schema|json)\//.test(url) || /node_modules\/(zod|ky)\//.test(url) || /undici|node:internal\/(deps|http|net|stream)/.test(url)) return 'the sync: HTTP, parsing, validation';
  if (/node:internal\/modules|cjs-module-lexer|esbuild|tsx/.test(url)) return 'loading modules';
  // The inspector's call that stops the profiler (and serialises the profile): the profiler's own cost.
  if (url === '' && functionName === 'dispatch') return 'the profiler itself';
  if (url === '') return `native: ${functionName || '(anonymous)'}`;
  return 'other';
}

/** A markdown table of where the time of each profiled phase went (ms of sampled self time and share). */
export function restartCostTable(phases: readonly { name: string; profile: CpuProfile }[]): string {
  const byPhase = phases.map(({ name, profile }) => ({ name, costs: selfTimeBy(profile, restartCost) }));
  const lines: string[] = [];
  for (const { name, costs } of byPhase) {
    const total = [...costs.values()].reduce((a, b) => a + b, 0);
    lines.push(`| ${name} | ${Math.round(total)} ms sampled | |`, '|---|---:|---:|');
    for (const [category, ms] of [...costs].sort((a, b) => b[1] - a[1])) {
      if (ms / total < 0.01) continue;
      lines.push(`| ${category} | ${Math.round(ms)} | ${((100 * ms) / total).toFixed(0)}% |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
