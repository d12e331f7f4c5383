/**
 * The report printer: a soak run's figures and verdict as plain lines, with the command that
 * repeats the run when a check failed.
 */
import { soakCommand } from './options.js';
import type { SoakResult } from './run-soak.js';

/** How many violations are printed (all are counted). */
const SHOWN = 25;

/** The report of a run, ready to print. */
export function formatReport(r: SoakResult): string {
  const { check } = r;
  const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);
  const syncs = r.devices.reduce((n, d) => n + d.syncs, 0);
  const failedSyncs = r.devices.reduce((n, d) => n + sum(d.failedSyncs), 0);
  const restarts = Object.entries(r.restarts);
  const restartTotal = restarts.reduce((n, [, c]) => n + c.hit + c.missed, 0);
  const f = r.faults;
  const lines = [
    `soak: seed ${r.options.seed}, ${r.options.devices} devices, ${r.options.minutes} min (${(r.elapsedMs / 1000).toFixed(1)} s with settling)`,
    `operations: ${r.operations.total} (${Object.entries(r.operations.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}; ${r.operations.nothingToDo} found nothing to act on)`,
    `device creates: ${r.creates} records, ${check.createsFound} on the server; registers: ${r.registers.sales} sales, ${r.registers.deliveries} deliveries, ${r.registers.edits} edits, ${r.registers.removes} deletions`,
    `syncs: ${syncs} (${failedSyncs} failed: ${mergeCounts(r.devices.map((d) => d.failedSyncs))}); requests: ${r.requests}`,
    `faults injected: ${f.error} × 500, ${f.rate_limited} × 429, ${f.dropped} dropped after applying, ${f.truncated} truncated bodies, ${f.delayed} delayed; ${f.phases} fault phases, ${f.tokenRevocations} token revocations`,
    `restarts: ${restartTotal} (${restarts.map(([point, c]) => `${point} ${c.hit}${c.missed ? ` +${c.missed} after the sync` : ''}`).join(', ')})`,
    `conflicts: ${r.conflicts.noted} (resolved ${r.conflicts.resolvedLocal} local, ${r.conflicts.resolvedServer} server); settled in ${r.settle.rounds} round(s)`,
    `writes checked: ${check.writes.checked} (${check.writes.onServer} on the server, ${check.writes.overwritten} written over by someone who had seen them, ${check.writes.droppedByConflict} dropped by a conflict resolved for the server, ${check.writes.deleted} in deleted records)`,
    `lost ${check.lost}, duplicated ${check.duplicated}, differing ${count(r, 'differs')}, stuck ${count(r, 'stuck')}, orphaned creates ${check.orphaned}, unhandled rejections ${count(r, 'unhandled')}, failed operations ${count(r, 'failed')}`,
  ];
  lines.push(...verdict(check.violations, `seed ${r.options.seed}; to reproduce: ${soakCommand(r.options)}`));
  return `${lines.join('\n')}\n`;
}

/** The last lines of a soak's report: every check passed, or the violations (the first few) and how to repeat the run. */
export function verdict(violations: readonly { kind: string; message: string }[], repeat: string, more: readonly string[] = []): string[] {
  if (violations.length === 0) return ['OK: every check passed'];
  const lines = [`FAILED: ${violations.length} violation(s)`];
  for (const v of violations.slice(0, SHOWN)) lines.push(`  [${v.kind}] ${v.message}`);
  if (violations.length > SHOWN) lines.push(`  ... and ${violations.length - SHOWN} more`);
  return [...lines, ...more, repeat];
}

function count(r: SoakResult, kind: string): number {
  return r.check.violations.filter((v) => v.kind === kind).length;
}

function mergeCounts(list: readonly Record<string, number>[]): string {
  const total: Record<string, number> = {};
  for (const counts of list) for (const [k, n] of Object.entries(counts)) total[k] = (total[k] ?? 0) + n;
  const text = Object.entries(total).map(([k, n]) => `${k} ${n}`).join(', ');
  return text === '' ? 'none' : text;
}
