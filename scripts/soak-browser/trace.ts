/**
 * A trace of what happened to the records a browser soak's checks found something wrong with:
 * every write the ledger holds for each (with when the back office made its own, and the version
 * it gave), every version of it a tab was sent and every POST that carried it (which tab, when),
 * around the chaos (reloads, closes, cuts, freezes, lids) and the leaders' spans. Written as JSON
 * beside the report, for whoever takes the violation up.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CollectionName } from '../../src/schema/collections.js';
import type { Ledger } from '../soak/ledger.js';
import type { BackOffice } from './back-office.js';
import type { BrowserViolation } from './browser-checks.js';
import type { LeaderSpan } from './leader-check.js';
import type { ServiceWatch } from './service-watch.js';

/** Where traces go (gitignored). */
export const TRACE_DIR = resolve(fileURLToPath(import.meta.url), '../../../test-output/soak-browser');

/** What a trace is built from. */
export interface TraceSources {
  violations: readonly BrowserViolation[];
  ledger: Ledger;
  backOffice: BackOffice;
  watch: ServiceWatch;
  chaos: readonly { at: number; what: string }[];
  users: readonly { step: number; completed?: number; slot: number; kind: string; from: number; to: number; outcome: string }[];
  leaders: readonly LeaderSpan[];
  /** The server's records and each open tab's, as the checks saw them. */
  server: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;
  tabs: readonly { label: string; records: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>> }[];
}

/** Writes the trace of the violations (their records, the actions that threw) as `<name>.json` in {@link TRACE_DIR}; returns its path. */
export async function writeTrace(name: string, sources: TraceSources): Promise<string> {
  const subjects = new Map<string, { collection: CollectionName; id: string }>();
  for (const v of sources.violations) if (v.subject) subjects.set(`${v.subject.collection}|${v.subject.id}`, v.subject);
  const records = [...subjects.values()].map(({ collection, id }) => {
    const writes = sources.ledger.writes.filter((w) => w.collection === collection && w.id === id).map((w) => ({ ...w, ...sources.backOffice.timeOf(w) }));
    const steps = new Set(writes.map((w) => w.step));
    const find = (records: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>) => records[collection]?.find((r) => String(r.id) === id);
    return {
      collection,
      id,
      onServer: find(sources.server),
      inTabs: sources.tabs.map((t) => ({ tab: t.label, record: find(t.records) })),
      writes,
      users: sources.users.filter((u) => u.completed !== undefined && steps.has(u.completed)),
      ...sources.watch.trafficOf(collection, id),
    };
  });
  const path = join(TRACE_DIR, `${name}.json`);
  await mkdir(TRACE_DIR, { recursive: true });
  // Actions that threw, with the chaos around them: a failure that names no record.
  const failures = sources.users.filter((u) => u.outcome.startsWith('threw'));
  await writeFile(path, JSON.stringify({ violations: sources.violations, records, failures, chaos: sources.chaos, leaders: sources.leaders }, null, 1));
  return path;
}
