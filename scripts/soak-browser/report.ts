/**
 * The report printer of a browser soak run: its figures and verdict as plain lines, with the seed
 * and the command that repeats the run when a check failed.
 */
import { LEADER_TOLERANCE_MS } from './leader-check.js';
import type { KillCounts, MomentCounts } from './chaos.js';
import { verdict } from '../soak/report.js';
import { browserSoakCommand } from './options.js';
import { formatDay } from './day-report.js';
import type { BrowserSoakResult } from './run-browser-soak.js';

/** The report of a run, ready to print. */
export function formatBrowserReport(r: BrowserSoakResult): string {
  const { check, chaos, users } = r;
  const soak = check.soak;
  const count = (kind: string) => check.violations.filter((v) => v.kind === kind).length;
  const list = (counts: Partial<Record<string, number>>) => Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ');
  const f = r.faults;
  const lines = [
    `soak:browser${r.options.day ? ' (a day at the register)' : ''}: seed ${r.options.seed}, ${r.options.tabs} tabs, ${r.options.minutes} min in ${r.browserVersion} (${(r.elapsedMs / 1000).toFixed(1)} s with settling)`,
    `operations: ${users.actions + chaos.actions} (tabs' users ${users.actions}: ${list(users.byKind)}; ${users.nothingToDo} found nothing to act on, ${users.interrupted} cut short by a reload or close${users.reloadedByEngine ? ` (${users.reloadedByEngine} by the engine itself)` : ''}${r.options.storageKills ? `, ${users.lost} refused for a lost storage connection (not made; ${r.refusedSaves.stored.length} stored all the same${r.refusedSaves.stored.length ? `: steps ${r.refusedSaves.stored.map((s) => `${s.step} (${s.kind})`).join(', ')}` : ''})` : ''}; chaos ${chaos.actions}: ${list(chaos.byKind)})`,
    `reloads: ${moments(chaos.reloads)}; closes: ${moments(chaos.closes)}; tabs opened: ${r.tabs.opened} (${chaos.opened} during the run), ${r.tabs.open} open at the end`,
    `network cuts: ${chaos.cuts.proxy} of one tab at its proxy, ${chaos.cuts.offline} with the engine's offline mode, ${chaos.cuts.all} of every tab; frozen: ${chaos.freezes} tabs alone, ${chaos.lids} lids closed (every page process stopped)`,
    ...(r.options.storageKills ? [`storage kills: ${kills(chaos.kills)}`] : []),
    `leaders: ${check.leaders.spans.length} spans, ${check.leaders.handOvers} hand-overs, overlaps beyond ${LEADER_TOLERANCE_MS} ms: ${check.leaders.overlaps.length}`,
    `faults injected: ${f.error} × 500, ${f.rate_limited} × 429, ${f.dropped} dropped after applying, ${f.truncated} truncated bodies, ${f.delayed} delayed; ${f.phases} fault phases; requests: ${r.requests}`,
    `registers: ${r.registers.sales} sales, ${r.registers.deliveries} deliveries, ${r.registers.edits} edits, ${r.registers.removes} deletions`,
    `conflicts: ${r.conflicts.noted} (resolved ${r.conflicts.resolvedLocal} local, ${r.conflicts.resolvedServer} server); id collisions: ${r.collisions.minted} minted, ${r.collisions.moved} moved (${r.collisions.tooLate} too late: the create had gone out); settled in ${r.settle.rounds} round(s)${r.settle.failedSyncs ? `, ${r.settle.failedSyncs} failed syncs (last: ${r.settle.lastFailure})` : ''}`,
    `writes checked: ${soak.writes.checked} (${soak.writes.onServer} on the server, ${soak.writes.overwritten} written over by someone who had seen them, ${soak.writes.droppedByConflict} dropped by a conflict resolved for the server, ${soak.writes.deleted} in deleted records, ${soak.writes.writtenBlind} replaced by a push built before them); creates found: ${soak.createsFound}`,
    `lost ${soak.lost}, duplicated ${soak.duplicated}, differing ${count('differs')}, stuck ${count('stuck')}, orphaned creates ${soak.orphaned}, page errors ${count('page-error')}${check.pageErrorsWhileGoing.length ? ` (+${check.pageErrorsWhileGoing.length} from tabs being closed or reloaded, not counted: ${[...new Set(check.pageErrorsWhileGoing.map((e) => e.message))].join('; ')})` : ''}, two leaders ${count('two-leaders')}, collisions ${count('collision')}, unhandled ${count('unhandled')}, failed ${count('failed')}`,
  ];
  if (r.day) lines.push(...formatDay(r.day));
  lines.push(...verdict(check.violations, `seed ${r.options.seed}; to repeat it: ${browserSoakCommand(r.options)}`, r.trace ? [`trace: ${r.trace}`] : []));
  return `${lines.join('\n')}\n`;
}

function kills(k: KillCounts): string {
  const total = k.random + k['mid-pull'].hit + k['post-sent'].hit + k['post-answered'].hit + k.save.hit + k.save.late;
  const save = `save ${k.save.hit}${k.save.late ? ` (+${k.save.late} after it was answered)` : ''}${k.save.missed ? ` (+${k.save.missed} missed)` : ''}`;
  return `${total} (random ${k.random}, ${at(k, 'mid-pull')}, ${at(k, 'post-sent')}, ${at(k, 'post-answered')}, ${save}); ${k.none} found no storage process`;
}

function moments(m: MomentCounts): string {
  return `${m.random + m['mid-pull'].hit + m['post-sent'].hit + m['post-answered'].hit} (random ${m.random}, ${at(m, 'mid-pull')}, ${at(m, 'post-sent')}, ${at(m, 'post-answered')})`;
}

function at(m: MomentCounts, point: keyof Omit<MomentCounts, 'random'>): string {
  return `${point} ${m[point].hit}${m[point].missed ? ` (+${m[point].missed} missed)` : ''}`;
}
