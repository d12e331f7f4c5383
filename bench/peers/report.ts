/**
 * Prints what the peers benchmark measured: per candidate the median records/s over the rounds
 * (and each round's), CPU per record and peak RSS; then the mirror's ratio to each of the others,
 * round by round and as a median, against the aims. Not a benchmark itself.
 */
import { median } from '../stats.js';
import type { CandidateName, Outcome } from './job.js';

export const LABELS: Record<CandidateName, string> = {
  ours: 'this mirror (createMirror + syncNow)',
  rxdb: 'RxDB replicateRxCollection, Dexie storage',
  naive: 'naive loop: fetch, strict read, bulkPut',
  bulkPut: 'bare bulkPut of the parsed records',
};

/** What the mirror should reach against each peer (ratio of records/s), where an aim was set. */
const AIMS: Partial<Record<CandidateName, number>> = { rxdb: 10, naive: 1.1 };

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The lines of one scenario's report. */
export function reportLines(records: number, outcomes: Record<CandidateName, Outcome[]>): string[] {
  const rates = (name: CandidateName): number[] => outcomes[name].map((o) => records / (o.ms / 1000));
  const lines: string[] = [];
  for (const name of Object.keys(LABELS) as CandidateName[]) {
    const runs = outcomes[name];
    const rate = rates(name);
    const cpu = median(runs.map((o) => (o.cpuMs * 1000) / records));
    lines.push(
      `${LABELS[name].padEnd(44)} ${fmt(median(rate)).padStart(7)} records/s  (${rate.map(fmt).join(', ')});` +
        ` CPU ${cpu.toFixed(1)} µs/record; peak RSS ${mb(median(runs.map((o) => o.rssPeak)))} (before the copy ${mb(median(runs.map((o) => o.rssBefore)))})`,
    );
  }
  const ours = rates('ours');
  for (const peer of ['rxdb', 'naive', 'bulkPut'] as const) {
    const peerRates = rates(peer);
    const perRound = ours.map((r, i) => r / peerRates[i]!);
    const ratio = median(perRound);
    const aim = AIMS[peer];
    const verdict = aim === undefined ? '' : `; aim >= ${aim}x: ${ratio >= aim ? 'met' : 'NOT met'}`;
    lines.push(`ours / ${peer.padEnd(8)} median ${ratio.toFixed(2)}x  (per round ${perRound.map((r) => r.toFixed(2)).join(', ')})${verdict}`);
  }
  return lines;
}
